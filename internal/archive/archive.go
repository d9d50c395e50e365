// Package archive takes the one executable a release archive carries out
// of it, refusing the whole archive when any entry could write outside the
// destination (an absolute path, a `..`, a link): a release pipeline makes
// none, so an archive that has one was not made by it. The server install
// and `loams update` share it.
package archive

import (
	"archive/tar"
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"loams.dev/cli/internal/errs"
)

// Refuse builds the caller's error for an archive it will not use.
type Refuse func(format string, args ...any) error

// FromTar copies the regular file named name at the archive's root to
// dest (created, 0755), at most max bytes.
func FromTar(tr *tar.Reader, name, dest string, max int64, refuse Refuse) error {
	found := false
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return refuse("not a tar archive: %v", err)
		}
		if err := CheckName(h.Name, h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink, refuse); err != nil {
			return err
		}
		if path.Clean(h.Name) != name {
			continue
		}
		if h.Typeflag != tar.TypeReg || found {
			return refuse("entry %q is not one regular file", h.Name)
		}
		found = true
		if err := WriteExec(dest, tr, max, refuse); err != nil {
			return err
		}
	}
	if !found {
		return refuse("no %s at the archive's root", name)
	}
	return nil
}

// FromZip is FromTar for a .zip file (Windows releases).
func FromZip(file, name, dest string, max int64, refuse Refuse) error {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return refuse("not a zip archive: %v", err)
	}
	defer zr.Close()
	var entry *zip.File
	for _, f := range zr.File {
		if err := CheckName(f.Name, f.Mode()&os.ModeSymlink != 0, refuse); err != nil {
			return err
		}
		if path.Clean(f.Name) == name {
			if entry != nil || !f.Mode().IsRegular() {
				return refuse("entry %q is not one regular file", f.Name)
			}
			entry = f
		}
	}
	if entry == nil {
		return refuse("no %s at the archive's root", name)
	}
	r, err := entry.Open()
	if err != nil {
		return refuse("%s: %v", name, err)
	}
	defer r.Close()
	return WriteExec(dest, r, max, refuse)
}

// CheckName refuses an entry that could land outside the destination.
func CheckName(name string, link bool, refuse Refuse) error {
	switch {
	case strings.HasPrefix(name, "/") || path.IsAbs(name) || strings.Contains(name, ":"):
		return refuse("entry %q has an absolute path", name)
	case link:
		return refuse("entry %q is a link", name)
	}
	for _, part := range strings.Split(strings.ReplaceAll(name, "\\", "/"), "/") {
		if part == ".." {
			return refuse("entry %q climbs out with ..", name)
		}
	}
	return nil
}

// WriteExec writes r to a new file dest, 0755, synced. More than max bytes
// is refused (and nothing left behind), not silently cut short.
func WriteExec(dest string, r io.Reader, max int64, refuse Refuse) error {
	f, err := os.OpenFile(dest, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return errs.FromOS(err)
	}
	n, err := io.Copy(f, io.LimitReader(r, max+1))
	if err == nil && n > max {
		err = refuse("the executable is larger than %s", size(max))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dest)
		var coded *errs.Error
		if errors.As(err, &coded) {
			return err
		}
		return errs.FromOS(err)
	}
	return nil
}

func size(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }
