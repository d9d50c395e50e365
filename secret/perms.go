package secret

import (
	"fmt"
	"path/filepath"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
)

// checkProfilePaths is ssh's rule before a profile key is read and sent:
// LOAMS_HOME, config.toml (it names where the key goes) and the key's own
// directories and file must belong to this user (or root) and be writable
// by no one else. Otherwise another local user could point the profile's
// endpoint at a host of theirs and receive the key with the next request.
// Paths that do not exist are skipped (a keyring-held key has no file).
func checkProfilePaths(h home.Home, profile string) error {
	stakes := fmt.Sprintf("loams will not use the key of profile %q", profile)
	if err := safefile.CheckInHome(h.Dir, h.Config(), stakes); err != nil {
		return err
	}
	return safefile.CheckInHome(h.Dir, filepath.Join(h.Dir, "profiles", profile, "secrets", "api_key"), stakes)
}
