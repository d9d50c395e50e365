//go:build unix

package filelock

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// Lock takes the exclusive lock on path (created 0600), waiting until it
// is free or ctx ends; the returned func lets it go. The kernel lets go of
// a lock whose process dies, so a crash leaves nothing to clean up.
// Waiting ends with ctx: a cancelled run (an agent's
// notifications/cancelled, a SIGTERM to mcp serve) must not take the lock
// minutes later and carry on as if still wanted. It polls a non-blocking
// flock, as a blocked flock cannot be interrupted.
func Lock(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, &os.PathError{Op: "lock", Path: path, Err: err}
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(poll):
		}
	}
}
