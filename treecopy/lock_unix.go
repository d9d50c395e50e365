//go:build unix

package treecopy

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// holdLock creates path and holds an exclusive lock on it until the
// returned function runs (or the process ends, however it ends). The lock
// is taken under a name Sweep ignores and then renamed to path, so no
// sweeper ever finds path unlocked while its owner lives.
func holdLock(path string) (func(), error) {
	tmp := filepath.Join(filepath.Dir(path), ".locking-"+filepath.Base(path))
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		f.Close()
		_ = os.Remove(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		f.Close()
		_ = os.Remove(tmp)
		return nil, err
	}
	return func() { f.Close() }, nil
}

// tryLock takes path's lock without waiting; a missing path is taken too
// (its staging directory has no live owner).
func tryLock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
