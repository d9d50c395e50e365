package secret

import (
	"context"
	"encoding/json"
	"strings"

	"loams.dev/cli/internal/errs"
)

// Bound is a profile's API key and the origin (scheme://host:port,
// normalised by package endpoint) it was stored for: the key may go there
// and nowhere else (endpoints.md, "Keys belong to an endpoint"). Origin is
// empty for a key stored before origins were recorded.
type Bound struct {
	Origin string
	Key    Secret
}

// BoundStore is the store of profile keys: Get and Set keep working on the
// bare key (Set writes a key with no origin, as older loams did), GetBound
// and SetBound keep the key and its origin in one record.
type BoundStore interface {
	Store
	GetBound(ctx context.Context, profile string) (Bound, error)
	SetBound(ctx context.Context, profile string, b Bound) error
}

// boundRecord is how a bound key is stored: one JSON object in the same
// keyring entry or 0600 file as the key, so the origin is written, read
// and deleted with it and nothing outside the secret store (a config
// edit, a project file) can move a key to another endpoint. A stored
// value that is not an object is a key from before origins.
type boundRecord struct {
	Origin string `json:"origin"`
	Key    string `json:"key"`
}

func encodeBound(b Bound) Secret {
	data, _ := json.Marshal(boundRecord{Origin: b.Origin, Key: b.Key.value})
	return Secret{value: string(data)} // holds a key New already registered
}

func decodeBound(profile string, s Secret) (Bound, error) {
	v := s.value
	if !strings.HasPrefix(v, "{") {
		return Bound{Key: s}, nil
	}
	var r boundRecord
	if err := json.Unmarshal([]byte(v), &r); err != nil || r.Key == "" {
		// Never quote the record: it holds the key.
		return Bound{}, errs.New(errs.SecretMissing, "log in again: `loams login --with-api-key --profile "+profile+"` (the key is read from stdin)",
			"the stored API key of profile %q is unreadable", profile).With("profile", profile)
	}
	return Bound{Origin: r.Origin, Key: New(r.Key)}, nil
}
