// Package safefile writes files so that a reader sees either the old bytes
// or the new ones, never a torn file: temp file in the same directory,
// fsync, rename, fsync of the directory.
package safefile

import (
	"io/fs"
	"os"
	"path/filepath"

	"loams.dev/cli/internal/errs"
)

// Write replaces path with data atomically. The file gets perm (the temp file
// is created with it, so the bytes are never readable with looser modes).
func Write(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
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
	if err := os.Rename(tmpName, path); err != nil {
		return fail(path, err)
	}
	ok = true
	syncDir(dir)
	return nil
}

// fail names the target, not the temp file, and classifies a full disk
// or a denied write (errs.FromOS) so callers report them with the path.
func fail(path string, err error) error {
	return errs.FromOS(&fs.PathError{Op: "write", Path: path, Err: err})
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
