package update

import (
	"archive/tar"
	"compress/gzip"
	"os"
	"strings"

	"loams.dev/cli/internal/archive"
	"loams.dev/cli/internal/errs"
)

// maxBinary bounds the extracted loams (a release binary is ~30 MB).
const maxBinary = 512 << 20

// extract copies the regular file named bin (loams, or loams.exe) at the
// root of a release archive (.tar.gz, or .zip on Windows) to dest, 0755.
// An archive with a link, an absolute path or a `..` is refused whole:
// goreleaser makes none.
func extract(file, bin, dest string) error {
	if strings.HasSuffix(file, ".zip") {
		return archive.FromZip(file, bin, dest, maxBinary, badArchive)
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return badArchive("not a gzip stream: %v", err)
	}
	return archive.FromTar(tar.NewReader(gz), bin, dest, maxBinary, badArchive)
}

func badArchive(format string, args ...any) error {
	return errs.New(errs.ManifestInvalid, "nothing was changed; do not use this release, and report it",
		"refused the loams archive: "+format, args...)
}
