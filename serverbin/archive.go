package serverbin

import (
	"archive/tar"
	"io"

	"github.com/ulikunitz/xz"

	"loams.dev/cli/internal/archive"
	"loams.dev/cli/internal/errs"
)

// maxBinary bounds the extracted server (a release binary is ~100 MB).
const maxBinary = 2 << 30

// ExtractServer copies the regular file named `loams` at the root of a
// .tar.xz archive to dest (0755). An archive with a link, an absolute
// path or a `..` anywhere is refused whole: a release has none, so one
// that does was not made by the release pipeline.
func ExtractServer(r io.Reader, dest string) error {
	xr, err := xz.NewReader(r)
	if err != nil {
		return badArchive("not an xz stream: %v", err)
	}
	return archive.FromTar(tar.NewReader(xr), "loams", dest, maxBinary, badArchive)
}

func badArchive(format string, args ...any) error {
	return errs.New(errs.ManifestInvalid, "do not use this archive; download the release again or report it to the server project",
		"refused the server archive: "+format, args...)
}
