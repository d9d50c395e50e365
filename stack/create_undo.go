package stack

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// A create that is interrupted must not leave a half-made stack that the
// same command, run again, refuses with stack_exists. Two guards:
//
//   - Ctrl-C (a cancelled context) while the first start waits: Create
//     takes back all it made, the server it started included (undo).
//   - A create killed outright (a second Ctrl-C, SIGKILL, a crash) cannot
//     undo anything, so the stack directory carries a "creating" marker
//     naming the creating process until the create is over. A marker
//     whose process is gone is an abandoned create: the next create of
//     that name clears it away and starts afresh.

func creatingPath(dir string) string { return filepath.Join(dir, "creating") }

// markCreating records this process as the stack's creator.
func (sv *Supervisor) markCreating(s *Spec) error {
	pid := os.Getpid()
	return writePid(creatingPath(s.dir), pidFile{PID: pid, StartTime: startTime(pid), StartedAt: sv.now().UTC()})
}

// createDone removes the marker: the stack is made, whether or not its
// first start worked (a failed start leaves a stack `stack start` retries).
func createDone(s *Spec) error {
	if err := os.Remove(creatingPath(s.dir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// abandoned reports whether dir holds a create whose process is gone.
func abandoned(dir string) bool {
	p, err := readPid(creatingPath(dir))
	return err == nil && p != nil && !p.ours()
}

// undo stops the server a create started and removes the stack's key and
// directory. It runs after the caller's context ended, so it has its own:
// whatever it leaves, the next create of the name clears (the marker).
func (sv *Supervisor) undo(s *Spec) {
	ctx := context.Background()
	if p, _ := readPid(s.PidPath()); p.ours() {
		// A new stack holds nothing worth a graceful stop, and the person
		// who pressed Ctrl-C is waiting.
		_ = sigkill(p.PID)
		waitGone(ctx, p, 5*time.Second)
	}
	if store, err := sv.Secrets(ctx); err == nil {
		_ = store.Delete(ctx, s.Name)
	}
	_ = os.RemoveAll(s.dir)
}
