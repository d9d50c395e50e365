package envfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// step is one planned file write, with what it replaces so it can be undone.
type step struct {
	real      string // resolved path: a symlink's target
	data      []byte
	perm      os.FileMode
	old       []byte
	oldPerm   os.FileMode
	existed   bool
	tightened bool // an existing file's mode goes to 0600
}

// snapshot records the file's current bytes and mode.
func (s *step) snapshot() error {
	b, err := os.ReadFile(s.real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	}
	s.old, s.existed, s.oldPerm = b, true, safefile.Mode(s.real, 0)
	return nil
}

func (s step) undo() error {
	if !s.existed {
		return os.Remove(s.real)
	}
	return safefile.Write(s.real, s.old, s.oldPerm)
}

// apply writes the steps in order; when one fails, the ones already done
// are undone, newest first, so the call has one outcome.
func apply(steps []step) error {
	for i, st := range steps {
		err := safefile.Write(st.real, st.data, st.perm)
		if err == nil {
			continue
		}
		var undoErrs []error
		for j := i - 1; j >= 0; j-- {
			if e := steps[j].undo(); e != nil {
				undoErrs = append(undoErrs, e)
			}
		}
		e := writeError(st.real, err)
		if len(undoErrs) > 0 {
			return e.With("not_undone", fmt.Sprint(errors.Join(undoErrs...)))
		}
		return e.With("nothing_written", true)
	}
	return nil
}

// writeError reports a failed write by what the user can do about it,
// keeping the code safefile gave it (disk_full, forbidden) and saying that
// nothing was written.
func writeError(path string, err error) *errs.Error {
	var coded *errs.Error
	if errors.As(err, &coded) {
		return errs.New(coded.Code, coded.Hint, "%s; nothing was written", coded.Message).With("path", path).ForAgent(coded.AgentHint).Wrap(err)
	}
	if errors.Is(err, syscall.ENOSPC) {
		return errs.New(errs.DiskFull, "free some space on the disk that holds "+path+" and run the command again",
			"cannot write %s: the disk is full; nothing was written", path).With("path", path).Wrap(err)
	}
	return errs.New(errs.Forbidden, "check the permissions of "+path+" and its directory",
		"cannot write %s: %v; nothing was written", path, err).With("path", path).Wrap(err)
}
