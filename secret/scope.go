package secret

import (
	"context"
	"path/filepath"
	"regexp"
	"sync"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
)

// Scope says whose keys a store holds. Stacks have the bootstrap key loams
// made; profiles have the API key of a remote deployment, stored by
// `loams login --with-api-key` (endpoints.md). Both live in the same
// backends under different names.
type Scope string

const (
	Stacks   Scope = ""
	Profiles Scope = "profile"
)

// user is the keyring account: stack/<name>/api_key or profile/<name>/api_key.
func (s Scope) user(name string) string {
	if s == Profiles {
		return ProfileKeyringUser(name)
	}
	return KeyringUser(name)
}

// dir holds the secrets/ directory of the file backend.
func (s Scope) dir(h home.Home, name string) string {
	if s == Profiles {
		return filepath.Join(h.Dir, "profiles", name)
	}
	return h.Stack(name)
}

func (s Scope) noun() string {
	if s == Profiles {
		return "profile"
	}
	return "stack"
}

// ProfileKeyringUser is the keyring account name of a profile's key.
func ProfileKeyringUser(profile string) string { return "profile/" + profile + "/api_key" }

// OpenProfiles is Open for profile keys: the same modes and fallback, the
// keyring account profile/<name>/api_key, the file
// $LOAMS_HOME/profiles/<name>/secrets/api_key.
func OpenProfiles(ctx context.Context, mode string, h home.Home, notice func(string)) (BoundStore, error) {
	kr := NewKeyring()
	kr.Scope = Profiles
	s, err := open(ctx, mode, h, kr, notice)
	if err != nil {
		return nil, err
	}
	return profileStore{Store: s, home: h}, nil
}

// ProfileName is the shape of a profile name, the one pattern loams has
// (internal/config.ProfileName is this one: config imports secret through
// endpoint, so the pattern lives here). A profile name becomes a path below
// $LOAMS_HOME/profiles/ and a table name in config.toml, so no separators
// or dots.
var ProfileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$`) })

// profileStore refuses names that are not plain profile names before
// they reach a path or a keyring account, checks the paths that decide
// where a key goes before reading it, and keeps each key with its origin
// (bound.go).
type profileStore struct {
	Store
	home home.Home
}

func checkProfile(name string) error {
	if !ProfileName().MatchString(name) {
		return errs.New(errs.Usage, "profile names that hold keys use letters, digits, - and _ (e.g. staging)",
			"cannot store a key for profile %q", name).With("profile", name)
	}
	return nil
}

// Get is the bare key, whatever origin it was stored for.
func (p profileStore) Get(ctx context.Context, name string) (Secret, error) {
	b, err := p.GetBound(ctx, name)
	return b.Key, err
}

// Set stores a key with no origin, as loams did before keys were bound;
// the first use binds it (endpoint.LoadProfileKey). login uses SetBound.
func (p profileStore) Set(ctx context.Context, name string, s Secret) error {
	if err := checkProfile(name); err != nil {
		return err
	}
	return p.Store.Set(ctx, name, s)
}

func (p profileStore) GetBound(ctx context.Context, name string) (Bound, error) {
	if err := checkProfile(name); err != nil {
		return Bound{}, err
	}
	if err := checkProfilePaths(p.home, name); err != nil {
		return Bound{}, err
	}
	s, err := p.Store.Get(ctx, name)
	if err != nil {
		return Bound{}, err
	}
	return decodeBound(name, s)
}

func (p profileStore) SetBound(ctx context.Context, name string, b Bound) error {
	if err := checkProfile(name); err != nil {
		return err
	}
	return p.Store.Set(ctx, name, encodeBound(b))
}

func (p profileStore) Delete(ctx context.Context, name string) error {
	if err := checkProfile(name); err != nil {
		return err
	}
	return p.Store.Delete(ctx, name)
}
