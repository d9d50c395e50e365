//go:build unix

package workspace

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"

	"loams.dev/cli/internal/safefile"
)

// untrusted says why the loams.toml at path is not read, as git's
// safe.directory refuses a repository another user owns: it belongs to
// another user, or others may write it (someone else chose what it says).
// "" when it is the user's own.
func untrusted(path string) string {
	target := trustTarget(path)
	fi, err := os.Stat(target)
	if target == "" || err != nil || !fi.Mode().IsRegular() {
		// Reading it reports the problem: a symlink out of the project is
		// path_outside_project, a device or FIFO config_unreadable. The
		// mode of /dev/zero must not become a `chmod go-w` hint.
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if uid := int(st.Uid); uid != os.Geteuid() {
		return fmt.Sprintf("is owned by %s, not by you", userName(uid))
	}
	if perm := fi.Mode().Perm(); perm&0o002 != 0 || perm&0o020 != 0 && !privateGroup(st.Gid) {
		return fmt.Sprintf("is writable by others (mode %04o)", perm)
	}
	return ""
}

// fixFor is the command that makes path the user's own, when they trust
// what it says.
func fixFor(path string) string {
	if t := trustTarget(path); t != "" {
		path = t // the file a symlink inside the project leads to
	}
	fi, err := os.Stat(path)
	if err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
			return fmt.Sprintf("if you trust it, run `chown %s %s && chmod go-w %s`", userName(os.Geteuid()), path, path)
		}
	}
	return fmt.Sprintf("if you trust it, run `chmod go-w %s`", path)
}

// privateGroup reports whether gid is the user's own group (user private
// groups: Debian and Ubuntu give each user a group of their name and a
// umask of 002, so every file a clone checks out is group-writable, by no
// one else).
func privateGroup(gid uint32) bool {
	if int(gid) != os.Getegid() {
		return false
	}
	g, err1 := user.LookupGroupId(strconv.Itoa(int(gid)))
	u, err2 := user.LookupId(strconv.Itoa(os.Geteuid()))
	return err1 == nil && err2 == nil && g.Name == u.Username
}

// trustTarget is the file path is, through symlinks that stay in its
// directory; "" when it leads out of it (or cannot be resolved).
func trustTarget(path string) string {
	t, err := safefile.ResolveInside(filepath.Dir(path), path)
	if err != nil {
		return ""
	}
	return t
}

func userName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		return u.Username
	}
	return "uid " + strconv.Itoa(uid)
}
