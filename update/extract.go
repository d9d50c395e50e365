package update

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path"
	"strings"

	"loams.dev/cli/internal/errs"
)

// maxBinary bounds the extracted loams (a release binary is ~30 MB).
const maxBinary = 512 << 20

// extract copies the regular file named bin (loams, or loams.exe) at the
// root of a release archive (.tar.gz, or .zip on Windows) to dest, 0755.
// An archive with a link, an absolute path or a `..` is refused whole:
// goreleaser makes none.
func extract(archive, bin, dest string) error {
	if strings.HasSuffix(archive, ".zip") {
		return extractZip(archive, bin, dest)
	}
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return badArchive("not a gzip stream: %v", err)
	}
	tr := tar.NewReader(gz)
	found := false
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return badArchive("not a tar archive: %v", err)
		}
		if err := checkName(h.Name, h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink); err != nil {
			return err
		}
		if path.Clean(h.Name) != bin {
			continue
		}
		if h.Typeflag != tar.TypeReg || found {
			return badArchive("entry %q is not one regular file", h.Name)
		}
		found = true
		if err := writeExec(dest, tr); err != nil {
			return err
		}
	}
	if !found {
		return badArchive("no %s at the archive's root", bin)
	}
	return nil
}

func extractZip(archive, bin, dest string) error {
	zr, err := zip.OpenReader(archive)
	if err != nil {
		return badArchive("not a zip archive: %v", err)
	}
	defer zr.Close()
	var file *zip.File
	for _, f := range zr.File {
		if err := checkName(f.Name, f.Mode()&os.ModeSymlink != 0); err != nil {
			return err
		}
		if path.Clean(f.Name) == bin {
			if file != nil || !f.Mode().IsRegular() {
				return badArchive("entry %q is not one regular file", f.Name)
			}
			file = f
		}
	}
	if file == nil {
		return badArchive("no %s at the archive's root", bin)
	}
	r, err := file.Open()
	if err != nil {
		return badArchive("%s: %v", bin, err)
	}
	defer r.Close()
	return writeExec(dest, r)
}

func checkName(name string, link bool) error {
	switch {
	case strings.HasPrefix(name, "/") || path.IsAbs(name) || strings.Contains(name, ":"):
		return badArchive("entry %q has an absolute path", name)
	case link:
		return badArchive("entry %q is a link", name)
	}
	for _, part := range strings.Split(strings.ReplaceAll(name, "\\", "/"), "/") {
		if part == ".." {
			return badArchive("entry %q climbs out with ..", name)
		}
	}
	return nil
}

func writeExec(dest string, r io.Reader) error {
	f, err := os.OpenFile(dest, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return errs.FromOS(err)
	}
	if _, err := io.Copy(f, io.LimitReader(r, maxBinary)); err != nil {
		f.Close()
		return errs.FromOS(err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func badArchive(format string, args ...any) error {
	return errs.New(errs.ManifestInvalid, "nothing was changed; do not use this release, and report it",
		"refused the loams archive: "+format, args...)
}
