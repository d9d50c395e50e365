package treecopy

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// A Staging is a directory being filled beside its final place. Its lock
// file (beside it, so the rename does not carry it along) is held while
// the copy runs: a lock nobody holds marks a copy whose process died
// (Ctrl-C, kill -9, a crash), and Sweep clears it.
type Staging struct {
	Dir   string // fill this
	final string
	lock  string
	held  func()
}

const stagingPrefix = ".staging-"

// Stage makes the staging directory for final (which need not exist yet):
// <parent>/.staging-<base>-<random>.
func Stage(final string) (*Staging, error) {
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, err
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	dir := filepath.Join(parent, stagingPrefix+filepath.Base(final)+"-"+hex.EncodeToString(b[:]))
	lock := dir + ".lock"
	held, err := holdLock(lock)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		held()
		_ = os.Remove(lock)
		return nil, err
	}
	return &Staging{Dir: dir, final: final, lock: lock, held: held}, nil
}

// Commit renames the staging directory to its final name, which must not
// exist (rename would replace an empty directory silently).
func (s *Staging) Commit() error {
	if _, err := os.Lstat(s.final); err == nil {
		return &os.PathError{Op: "rename", Path: s.final, Err: fs.ErrExist}
	}
	if err := os.Rename(s.Dir, s.final); err != nil {
		return err
	}
	s.release()
	return nil
}

// Abort removes what was staged. Safe after Commit (it does nothing).
func (s *Staging) Abort() {
	if s.held == nil {
		return
	}
	_ = os.RemoveAll(s.Dir)
	s.release()
}

func (s *Staging) release() {
	if s.held != nil {
		_ = os.Remove(s.lock)
		s.held()
		s.held = nil
	}
}

// Sweep removes the staging directories in parent whose copy is no longer
// running, and returns the final names they were for. A missing parent
// holds none.
func Sweep(parent string) ([]string, error) {
	entries, err := os.ReadDir(parent)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var cleared []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".locking-"+stagingPrefix) { // killed between its open and its rename
			if held, err := tryLock(filepath.Join(parent, name)); err == nil {
				_ = os.Remove(filepath.Join(parent, name))
				held()
			}
			continue
		}
		if !strings.HasPrefix(name, stagingPrefix) {
			continue
		}
		if base, ok := strings.CutSuffix(name, ".lock"); ok {
			// A lock without its directory: a copy killed right after
			// its rename, or before its mkdir.
			if !exists(filepath.Join(parent, base)) {
				if held, err := tryLock(filepath.Join(parent, name)); err == nil {
					_ = os.Remove(filepath.Join(parent, name))
					held()
				}
			}
			continue
		}
		dir := filepath.Join(parent, name)
		lock := dir + ".lock"
		held, err := tryLock(lock)
		if err != nil {
			continue // its copy still runs
		}
		if err := os.RemoveAll(dir); err == nil {
			cleared = append(cleared, finalName(name))
		}
		_ = os.Remove(lock)
		held()
	}
	return cleared, nil
}

// finalName is the name a staging directory was to be renamed to.
func finalName(staging string) string {
	n := strings.TrimPrefix(staging, stagingPrefix)
	if i := strings.LastIndexByte(n, '-'); i > 0 {
		return n[:i]
	}
	return n
}
