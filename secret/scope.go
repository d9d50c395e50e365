package secret

import (
	"context"
	"path/filepath"

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
func OpenProfiles(ctx context.Context, mode string, h home.Home, notice func(string)) (Store, error) {
	kr := NewKeyring()
	kr.Scope = Profiles
	return open(ctx, mode, h, kr, notice)
}
