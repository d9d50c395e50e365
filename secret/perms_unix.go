//go:build unix

package secret

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
)

// checkProfilePaths is ssh's rule before a profile key is read and sent:
// LOAMS_HOME, config.toml (it names where the key goes) and the key's own
// directories and file must belong to this user (or root) and be writable
// by no one else. Otherwise another local user could point the profile's
// endpoint at a host of theirs and receive the key with the next request.
// Paths that do not exist are skipped (a keyring-held key has no file).
func checkProfilePaths(h home.Home, profile string) error {
	dir := filepath.Join(h.Dir, "profiles", profile)
	for _, p := range []string{h.Dir, h.Config(), filepath.Dir(dir), dir, filepath.Join(dir, "secrets"), filepath.Join(dir, "secrets", "api_key")} {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		if uid := os.Getuid(); int(st.Uid) != uid && st.Uid != 0 {
			return errs.New(errs.UnsafePermissions, fmt.Sprintf("if you trust its content, take it back: `chown %d %s`", uid, p),
				"%s belongs to another user (uid %d), so loams will not use the key of profile %q", p, st.Uid, profile).
				With("path", p).With("owner_uid", st.Uid)
		}
		if perm := fi.Mode().Perm(); perm&0o022 != 0 {
			fix := "chmod 700 " + p
			if !fi.IsDir() {
				fix = "chmod 600 " + p
			}
			return errs.New(errs.UnsafePermissions, fmt.Sprintf("check that nobody changed it, then `%s`", fix),
				"%s is writable by other users (mode %04o), so loams will not use the key of profile %q", p, perm, profile).
				With("path", p).With("mode", fmt.Sprintf("%04o", perm)).With("fix", fix)
		}
	}
	return nil
}
