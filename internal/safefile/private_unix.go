//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"syscall"

	"loams.dev/cli/internal/errs"
)

// CheckPrivate is ssh's rule for what guards a key: every path must belong
// to this user (or root) and be writable by no one else, or another local
// user could have changed what loams is about to trust. stakes finishes the
// error's sentence ("loams will not …"). A missing path is skipped when
// skipMissing, else its error is returned.
func CheckPrivate(paths []string, skipMissing bool, stakes string) error {
	for _, p := range paths {
		fi, err := os.Stat(p)
		if skipMissing && errors.Is(err, fs.ErrNotExist) {
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
			me := fmt.Sprint(uid)
			if u, err := user.Current(); err == nil {
				me = u.Username
			}
			return errs.New(errs.UnsafePermissions, fmt.Sprintf("if you trust its content, take it back: `chown %s %s`", me, p),
				"%s belongs to another user (uid %d), so %s", p, st.Uid, stakes).
				With("path", p).With("owner_uid", st.Uid)
		}
		if perm := fi.Mode().Perm(); perm&0o022 != 0 {
			fix := "chmod 700 " + p
			if !fi.IsDir() {
				fix = "chmod 600 " + p
			}
			return errs.New(errs.UnsafePermissions, fmt.Sprintf("check that nobody changed it, then `%s`", fix),
				"%s is writable by other users (mode %04o), so %s", p, perm, stakes).
				With("path", p).With("mode", fmt.Sprintf("%04o", perm)).With("fix", fix)
		}
	}
	return nil
}
