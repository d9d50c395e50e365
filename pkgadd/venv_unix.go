//go:build unix

package pkgadd

import (
	"fmt"
	"os"
	"syscall"
)

// notMine says whose p is when it is not this user's.
func notMine(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return err.Error()
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Sprintf("%s belongs to another user (uid %d)", p, st.Uid)
	}
	return ""
}
