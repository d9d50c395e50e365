// Package secret holds each stack's API key: the Secret type that cannot be
// printed by accident, the key format, and the stores it lives in (OS
// keyring, 0600 file, memory for tests).
package secret

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"

	"loams.dev/cli/internal/redact"
)

// Redacted is what every printing method of Secret shows.
const Redacted = redact.Placeholder

// Secret is a secret value. Its printing and marshalling methods all show
// Redacted; only Reveal returns the value, and only the dotenv writer and the
// stores call it.
type Secret struct{ value string }

// New wraps a value read from a store, and makes it a known secret that
// every writer of the process redacts (internal/redact).
func New(value string) Secret {
	redact.Add(value)
	return Secret{value: value}
}

// Reveal returns the secret value. Call it only to write the value where
// the user asked for it (.env.loams, a store, the server's environment).
func (s Secret) Reveal() string { return s.value }

// IsZero reports whether the secret is empty.
func (s Secret) IsZero() bool { return s.value == "" }

func (s Secret) String() string                { return Redacted }
func (s Secret) GoString() string              { return Redacted }
func (s Secret) MarshalJSON() ([]byte, error)  { return []byte(`"` + Redacted + `"`), nil }
func (s Secret) MarshalText() ([]byte, error)  { return []byte(Redacted), nil }
func (s Secret) Format(f fmt.State, verb rune) { fmt.Fprint(f, Redacted) }

// ErrNotFound means the store has no secret for the stack.
var ErrNotFound = errors.New("secret not found")

// Store keeps one API key per stack.
type Store interface {
	Get(ctx context.Context, stack string) (Secret, error)
	Set(ctx context.Context, stack string, s Secret) error
	Delete(ctx context.Context, stack string) error
	// Backend names the store for loams_info: "keyring", "file" or "memory".
	Backend() string
}

const (
	lower  = "abcdefghijklmnopqrstuvwxyz0123456789"
	base62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

// Generate makes a key in the Loams format loams_<key_id>_<secret>: a
// 12-character [a-z0-9] id and a 32-character base62 secret, from crypto/rand.
func Generate() (Secret, error) {
	id, err := randomString(lower, 12)
	if err != nil {
		return Secret{}, err
	}
	sec, err := randomString(base62, 32)
	if err != nil {
		return Secret{}, err
	}
	return New("loams_" + id + "_" + sec), nil
}

// KeyID returns the public id part of a Loams key ("" when malformed).
func (s Secret) KeyID() string {
	if len(s.value) >= 19 && s.value[:6] == "loams_" && s.value[18] == '_' {
		return s.value[6:18]
	}
	return ""
}

func randomString(alphabet string, n int) (string, error) {
	b := make([]byte, n)
	max := big.NewInt(int64(len(alphabet)))
	for i := range b {
		k, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", err
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b), nil
}
