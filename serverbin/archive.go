package serverbin

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"path"
	"strings"

	"github.com/ulikunitz/xz"

	"loams.dev/cli/internal/errs"
)

// maxBinary bounds the extracted server (a release binary is ~100 MB).
const maxBinary = 2 << 30

// ExtractServer copies the regular file named `loams` at the root of a
// .tar.xz archive to dest (0755). An archive with a link, an absolute
// path or a `..` anywhere is refused whole: a release has none, so one
// that does was not made by the release pipeline.
func ExtractServer(archive io.Reader, dest string) error {
	xr, err := xz.NewReader(archive)
	if err != nil {
		return badArchive("not an xz stream: %v", err)
	}
	tr := tar.NewReader(xr)
	found := false
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return badArchive("not a tar archive: %v", err)
		}
		name := h.Name
		switch {
		case strings.HasPrefix(name, "/") || path.IsAbs(name):
			return badArchive("entry %q has an absolute path", name)
		case climbs(name):
			return badArchive("entry %q climbs out with ..", name)
		case h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink:
			return badArchive("entry %q is a link", name)
		}
		if path.Clean(name) != "loams" {
			continue
		}
		if h.Typeflag != tar.TypeReg || found {
			return badArchive("entry %q is not one regular file", name)
		}
		found = true
		if err := writeExec(dest, io.LimitReader(tr, maxBinary)); err != nil {
			return err
		}
	}
	if !found {
		return badArchive("no file named loams at the archive's root")
	}
	return nil
}

// climbs reports a `..` path element.
func climbs(name string) bool {
	for _, part := range strings.Split(strings.ReplaceAll(name, "\\", "/"), "/") {
		if part == ".." {
			return true
		}
	}
	return false
}

func writeExec(dest string, r io.Reader) error {
	f, err := os.OpenFile(dest, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func badArchive(format string, args ...any) error {
	return errs.New(errs.ManifestInvalid, "do not use this archive; download the release again or report it to the server project",
		"refused the server archive: "+format, args...)
}
