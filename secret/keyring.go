package secret

import (
	"context"
	"errors"
	"time"

	"github.com/zalando/go-keyring"

	"loams.dev/cli/internal/errs"
)

// KeyringService is the service name every key is filed under in the OS keyring.
const KeyringService = "loams"

// KeyringTimeout bounds every keyring call: a frozen Secret Service would
// otherwise hang the CLI or the MCP server forever (go-keyring has no timeout).
const KeyringTimeout = 3 * time.Second

// KeyringAPI is the part of an OS keyring loams uses. The real one is
// go-keyring; tests substitute a fake that can block.
type KeyringAPI interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// OSKeyring is the system keyring through go-keyring (Keychain, Credential
// Manager, freedesktop Secret Service).
type OSKeyring struct{}

func (OSKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (OSKeyring) Set(service, user, pw string) error       { return keyring.Set(service, user, pw) }
func (OSKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }

// Keyring stores each stack's key in the OS keyring under service "loams",
// user "stack/<name>/api_key".
type Keyring struct {
	API     KeyringAPI
	Timeout time.Duration
	Scope   Scope // stacks (zero value) or profiles
}

// NewKeyring returns the store backed by the system keyring.
func NewKeyring() *Keyring { return &Keyring{API: OSKeyring{}, Timeout: KeyringTimeout} }

// KeyringUser is the keyring account name of a stack's key.
func KeyringUser(stack string) string { return "stack/" + stack + "/api_key" }

func (k *Keyring) Get(ctx context.Context, stack string) (Secret, error) {
	var v string
	err := k.call(ctx, "read", func() (err error) {
		v, err = k.API.Get(KeyringService, k.Scope.user(stack))
		return err
	})
	if err != nil {
		return Secret{}, err
	}
	if v == "" {
		return Secret{}, ErrNotFound
	}
	return New(v), nil
}

func (k *Keyring) Set(ctx context.Context, stack string, s Secret) error {
	return k.call(ctx, "store", func() error {
		return k.API.Set(KeyringService, k.Scope.user(stack), s.value)
	})
}

// Delete removes the key; an absent key is not an error.
func (k *Keyring) Delete(ctx context.Context, stack string) error {
	err := k.call(ctx, "delete", func() error {
		return k.API.Delete(KeyringService, k.Scope.user(stack))
	})
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

func (k *Keyring) Backend() string { return "keyring" }

// Probe checks that the keyring answers, with one cheap read of an account
// that does not exist: "not found" means it works.
func (k *Keyring) Probe(ctx context.Context) error {
	err := k.call(ctx, "reach", func() error {
		_, err := k.API.Get(KeyringService, "probe")
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// call runs fn in a goroutine and gives up after the timeout. The goroutine
// of a frozen keyring is abandoned: it cannot be cancelled, and waiting for
// it is exactly the hang the timeout exists to avoid.
func (k *Keyring) call(ctx context.Context, verb string, fn func() error) error {
	timeout := k.Timeout
	if timeout <= 0 {
		timeout = KeyringTimeout
	}
	done := make(chan error, 1)
	go func() { done <- fn() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		return mapKeyringError(verb, err)
	case <-timer.C:
		return errs.New(errs.KeyringUnavailable, keyringHint,
			"the OS keyring did not answer within %s (could not %s the key)", timeout, verb).Wrap(context.DeadlineExceeded)
	case <-ctx.Done():
		return ctx.Err()
	}
}

const keyringHint = "unlock your keyring (Secret Service, Keychain), or store keys in a file: " +
	"`loams configure set secrets file` or LOAMS_SECRETS=file"

// mapKeyringError turns go-keyring's errors into ours. Only ErrNotFound means
// "no key"; everything else (no session bus, no Secret Service, a locked
// collection) means the keyring cannot be used. The messages come from the
// keyring library and D-Bus, never from the value.
func mapKeyringError(verb string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrNotFound), errors.Is(err, ErrNotFound):
		return ErrNotFound
	}
	return errs.New(errs.KeyringUnavailable, keyringHint, "the OS keyring is unavailable (could not %s the key): %s", verb, oneLine(err.Error())).Wrap(err)
}

func oneLine(s string) string {
	for i, c := range s {
		if c == '\n' || c == '\r' {
			return s[:i]
		}
	}
	return s
}

var _ Store = (*Keyring)(nil)
