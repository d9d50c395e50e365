package endpoint

import (
	"context"
	"errors"
	"fmt"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
)

// Key is an API key and the origin it belongs to. The Client attaches it
// only to requests whose origin equals Origin, so a Key with no Origin
// goes nowhere.
type Key struct {
	Secret secret.Secret
	Origin Origin
}

// BindKey is s bound to the origin of rawURL: a local stack's own key
// bound to its native URL, a key being stored by login.
func BindKey(s secret.Secret, rawURL string) Key {
	return Key{Secret: s, Origin: ParseOrigin(rawURL)}
}

// IsZero reports whether there is no key at all.
func (k Key) IsZero() bool { return k.Secret.IsZero() }

// LoadProfileKey reads the key `loams login` stored for profile; the zero
// Key when there is none. A key stored before origins were recorded is
// bound now to profileEndpoint — the profile's own setting, never
// --endpoint or LOAMS_ENDPOINT, which could name any server — and written
// back with it, so notice says so once. A profile with no remote endpoint
// cannot bind it: the key stays unbound and is sent nowhere.
func LoadProfileKey(ctx context.Context, keys secret.BoundStore, profile, profileEndpoint string, notice func(string)) (Key, error) {
	b, err := keys.GetBound(ctx, profile)
	if errors.Is(err, secret.ErrNotFound) {
		return Key{}, nil
	}
	if err != nil {
		return Key{}, err
	}
	if b.Origin != "" {
		return Key{Secret: b.Key, Origin: Origin(b.Origin)}, nil
	}
	t, err := ParseTarget(profileEndpoint)
	if err != nil || t.URL == nil {
		return Key{Secret: b.Key}, nil
	}
	k := BindKey(b.Key, t.URL.String())
	msg := fmt.Sprintf("note: the API key of profile %s was stored before loams bound keys to an endpoint; it is now bound to %s and sent nowhere else", profile, k.Origin)
	if err := keys.SetBound(ctx, profile, secret.Bound{Origin: string(k.Origin), Key: k.Secret}); err != nil {
		msg += fmt.Sprintf(" (recording that failed: %s; loams will bind it again next time)", errs.As(err).Message)
	}
	if notice != nil {
		notice(msg)
	}
	return k, nil
}

// For is the key's secret for whatever will talk to rawURL (an
// .env.loams that names it): the secret when rawURL has the key's origin,
// else unauthenticated naming both origins. No key is the zero Secret.
func (k Key) For(rawURL, profile string) (secret.Secret, error) {
	if k.IsZero() {
		return secret.Secret{}, nil
	}
	if o := ParseOrigin(rawURL); o == "" || o != k.Origin {
		return secret.Secret{}, k.elsewhere(rawURL, profile)
	}
	return k.Secret, nil
}

// elsewhere is the error of a key that may not go to requested: it names
// the origin the key belongs to and the one asked for, and how to log in
// to the new one.
func (k Key) elsewhere(requested, profile string) error {
	if profile == "" {
		profile = "NAME"
	}
	cmd := "loams login --with-api-key --profile " + profile + " --endpoint " + requested
	login := "`" + cmd + "` (the key is read from stdin)"
	asked := string(ParseOrigin(requested))
	if asked == "" {
		asked = requested
	}
	if k.Origin == "" {
		return errs.New(errs.Unauthenticated, "log in again: "+login,
			"the API key of profile %q was stored before loams bound keys to an endpoint, and the profile names no remote endpoint to bind it to; it is not sent to %s", profile, asked).
			With("profile", profile).With("endpoint", requested).ForAgent(errs.AskUser(cmd))
	}
	return errs.New(errs.Unauthenticated, "to use "+asked+", log in to it: "+login,
		"the API key of profile %q belongs to %s; loams does not send it to %s", profile, k.Origin, asked).
		With("profile", profile).With("endpoint", requested).With("key_origin", string(k.Origin)).ForAgent(errs.AskUser(cmd))
}
