package update

import (
	"context"
	"os"
	"path/filepath"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/filelock"
)

// lock is the one lock of `loams update` and `--rollback`
// ($LOAMS_HOME/update/lock): two runs at once would both keep "the
// previous loams" (one losing it) and swap the binary under each other.
// Once held, the binary at u.Exe must still be the one running: if
// another run replaced it while this one waited, this one stops, and the
// user runs the new loams.
func (u *Updater) lock(ctx context.Context) (func(), error) {
	dir := u.previousDir()
	// MkdirAll, not Home.Ensure: a LOAMS_HOME others could write is
	// reported by the checks that follow, not quietly tightened first.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, errs.FromOS(err)
	}
	unlock, err := filelock.Lock(ctx, filepath.Join(dir, "lock"))
	if err != nil {
		return nil, errs.FromOS(err)
	}
	if !u.stillRunning() {
		unlock()
		return nil, errs.New(errs.FileConflict, "run `loams update` (or `loams version`) again: the loams now at "+u.Exe+" decides",
			"another `loams update` replaced %s while this one waited; nothing more was changed", u.Exe).With("path", u.Exe)
	}
	return unlock, nil
}

// stillRunning reports whether the file at u.Exe is the binary of this
// process (Linux: /proc/self/exe; elsewhere the file as it was when the
// Updater first looked).
func (u *Updater) stillRunning() bool {
	now, err := os.Stat(u.Exe)
	if err != nil {
		return false
	}
	if self, err := os.Stat("/proc/self/exe"); err == nil {
		return os.SameFile(self, now)
	}
	return u.exeAtStart == nil || os.SameFile(u.exeAtStart, now)
}
