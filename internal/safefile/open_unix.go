//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// openNoBlock opens a resolved path for reading without following a last
// symlink swapped in since it was resolved, and without blocking on a FIFO
// (with O_NONBLOCK its open returns at once; the type check then refuses it).
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}

// openFollowNoBlock is openNoBlock for a path whose symlinks are the
// user's to make (a mirror on disk): they are followed.
func openFollowNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
