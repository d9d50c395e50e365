// Package safefile writes files so that a reader sees either the old bytes
// or the new ones, never a torn file: temp file in the same directory,
// fsync, rename, fsync of the directory. A symlink is written through (the
// user's link survives), and a file its owner made read-only is never
// replaced.
package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/errs"
)

// ErrReadOnly is the cause when the file exists without its owner's write
// bit. We check the bit ourselves: root (and CAP_DAC_OVERRIDE) would be
// allowed to replace the file, but a user who ran `chmod 0444` meant "do not
// change this". It matches fs.ErrPermission, so callers report `forbidden`.
var ErrReadOnly = readOnlyError{}

type readOnlyError struct{}

func (readOnlyError) Error() string {
	return "the file is read-only (no write permission for its owner)"
}
func (readOnlyError) Is(target error) bool { return target == fs.ErrPermission }

// ErrNotRegular is the cause when the path is a directory, a socket or another
// non-file: nothing can be written there.
var ErrNotRegular = errors.New("not a regular file")

// ErrDanglingLink is the cause when the path is a symlink to nothing: writing
// through it would create a file somewhere nobody checked.
var ErrDanglingLink = errors.New("a symlink to a missing file")

// ErrOutside is matched by an *OutsideError.
var ErrOutside = errors.New("outside the allowed directory")

// OutsideError says a path, or the file its symlink leads to, leaves Root.
type OutsideError struct {
	Path   string // as asked
	Target string // where it leads
	Root   string
}

func (e *OutsideError) Error() string {
	if e.Target != "" && e.Target != e.Path {
		return fmt.Sprintf("%s leads to %s, outside %s", e.Path, e.Target, e.Root)
	}
	return fmt.Sprintf("%s is outside %s", e.Path, e.Root)
}

// Is makes errors.Is(err, ErrOutside) true.
func (e *OutsideError) Is(target error) bool { return target == ErrOutside }

// Resolve returns the file a write of path lands in: path itself with its
// directories' symlinks resolved, or, when path is a symlink, the file it
// finally points to. A dangling link is ErrDanglingLink.
func Resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, filepath.Base(abs)), nil
	case err != nil:
		return "", err
	case fi.Mode()&fs.ModeSymlink == 0:
		dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, filepath.Base(abs)), nil
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", &fs.PathError{Op: "resolve", Path: path, Err: ErrDanglingLink}
	}
	return real, nil
}

// ResolveInside is Resolve for a file that must stay inside root (a
// project): the path and the file its links lead to are both checked, so a
// link that leaves root is never read or written through.
func ResolveInside(root, path string) (string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	real, err := Resolve(path)
	if err != nil {
		return "", err
	}
	if !Inside(realRoot, real) {
		return "", &OutsideError{Path: path, Target: real, Root: realRoot}
	}
	return real, nil
}

// Inside reports whether p is root or below it (both absolute and clean).
func Inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// CheckWritable fails when real (an already resolved path) exists and may
// not be replaced: not a regular file, or read-only for its owner. A
// missing file is fine.
func CheckWritable(real string) error {
	fi, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return &fs.PathError{Op: "write", Path: real, Err: ErrNotRegular}
	case fi.Mode().Perm()&0o200 == 0:
		return &fs.PathError{Op: "write", Path: real, Err: ErrReadOnly}
	}
	return nil
}

// Write replaces path with data atomically. The file gets perm (the temp
// file is created with it, so the bytes are never readable with looser
// modes). When path is a symlink the file it points to is replaced and the
// link kept. A read-only file is refused (ErrReadOnly), never replaced.
func Write(path string, data []byte, perm os.FileMode) error {
	real, err := Resolve(path)
	if err != nil {
		return fail(path, err)
	}
	return write(path, real, data, perm)
}

// WriteInside is Write for a file that must stay inside root: a path or a
// symlink that leads out of root is refused with an *OutsideError.
func WriteInside(root, path string, data []byte, perm os.FileMode) error {
	real, err := ResolveInside(root, path)
	if err != nil {
		return fail(path, err)
	}
	return write(path, real, data, perm)
}

func write(path, real string, data []byte, perm os.FileMode) error {
	if err := CheckWritable(real); err != nil {
		return fail(path, err)
	}
	dir := filepath.Dir(real)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(real)+".tmp-*")
	if err != nil {
		return fail(path, err)
	}
	tmpName := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	if err := tmp.Chmod(perm); err != nil {
		return fail(path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(path, err)
	}
	if err := tmp.Close(); err != nil {
		return fail(path, err)
	}
	if err := os.Rename(tmpName, real); err != nil {
		return fail(path, err)
	}
	ok = true
	syncDir(dir)
	return nil
}

// fail names the target, not the temp file, and classifies a full disk
// or a denied write (errs.FromOS) so callers report them with the path. A
// read-only file says so, with the chmod that allows the write.
func fail(path string, err error) error {
	if errors.Is(err, ErrReadOnly) {
		return errs.New(errs.Forbidden, fmt.Sprintf("run `chmod u+w %s` if loams may change it", path),
			"%s is read-only (mode %04o); loams does not replace it", path, Mode(path, 0)).With("path", path).Wrap(err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		err = &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return errs.FromOS(err)
}

// syncDir makes the rename durable; some filesystems refuse it, which is harmless.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Mode returns the permission bits of an existing file, or def when it does not exist.
func Mode(path string, def os.FileMode) os.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return def
}
