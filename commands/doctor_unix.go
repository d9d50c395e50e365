//go:build !windows

package commands

import (
	"os"
	"syscall"
)

// ownerUID is the file's owner.
func ownerUID(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
