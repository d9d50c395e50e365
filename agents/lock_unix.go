//go:build !windows

package agents

import (
	"os"
	"syscall"
)

// lockFile holds an exclusive lock on path until the returned func runs,
// so parallel installs read-modify-write mcp-installs.json one at a time.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}
