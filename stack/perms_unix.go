//go:build unix

package stack

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"syscall"

	"loams.dev/cli/internal/errs"
)

// checkSafe is ssh's rule for keys applied to a stack: before loams runs
// the binary stack.toml names, or reads the stack's key, LOAMS_HOME,
// stacks/, the stack's directory and stack.toml must belong to this user
// (or root) and be writable by no one else. Otherwise another local user
// could have pointed server_binary at a script of theirs, and the next
// start would hand it the stack's key.
func (s *Spec) checkSafe() error {
	stacks := filepath.Dir(s.dir)
	for _, p := range []string{filepath.Dir(stacks), stacks, s.dir, filepath.Join(s.dir, "stack.toml")} {
		fi, err := os.Stat(p)
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
				"%s belongs to another user (uid %d), so loams will not run what it names or read its key", p, st.Uid).
				With("path", p).With("owner_uid", st.Uid)
		}
		if perm := fi.Mode().Perm(); perm&0o022 != 0 {
			fix := "chmod 700 " + p
			if !fi.IsDir() {
				fix = "chmod 600 " + p
			}
			return errs.New(errs.UnsafePermissions, fmt.Sprintf("check that nobody changed it, then `%s`", fix),
				"%s is writable by other users (mode %04o), so loams will not run what it names or read its key", p, perm).
				With("path", p).With("mode", fmt.Sprintf("%04o", perm)).With("fix", fix)
		}
	}
	return nil
}
