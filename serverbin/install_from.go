package serverbin

import (
	"context"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/filehash"
)

// installFrom installs a local archive or binary, or downloads one from a
// URL (with consent). No manifest: the smoke test is the check, and the
// version is the binary's own.
func (in *Installer) installFrom(ctx context.Context, o InstallOptions) (*Receipt, error) {
	staging, cleanup, err := in.staging()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	src := o.From
	r := &Receipt{Variant: o.Variant, Target: Target(in.GOOS, in.GOARCH), SourceURL: src}
	local := filepath.Join(staging, "download")
	if u, err := url.Parse(src); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		// No manifest, no signature: HTTPS (or this machine) is all that
		// stands between the download and what runs, on every hop.
		in.withRule(RequireHTTPS("a --from download", "give --from an https:// URL, or download the file and give its path"))
		if err := in.Fetcher.Rule(u); err != nil {
			return nil, err
		}
		if err := in.Consent(src, -1); err != nil {
			return nil, err
		}
		if err := in.download(ctx, src, local, -1); err != nil {
			return nil, err
		}
	} else {
		abs, err := filepath.Abs(src)
		if err != nil || !isFile(abs) {
			return nil, errs.New(errs.Usage, "give --from a .tar.xz release archive or a server binary", "%s is not a file", src)
		}
		r.SourceURL = abs
		if err := copyFile(abs, local); err != nil {
			return nil, err
		}
	}
	sum, err := filehash.SHA256(local)
	if err != nil {
		return nil, err
	}
	r.SHA256 = sum
	if isXZ(local) {
		return in.finish(ctx, staging, local, r)
	}
	if err := os.Rename(local, filepath.Join(staging, "loams")); err != nil {
		return nil, err
	}
	if err := os.Chmod(filepath.Join(staging, "loams"), 0o755); err != nil {
		return nil, err
	}
	return in.finish(ctx, staging, "", r)
}

func isXZ(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	magic := make([]byte, 6)
	_, err = io.ReadFull(f, magic)
	return err == nil && string(magic) == "\xfd7zXZ\x00"
}

func copyFile(src, dest string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dest, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
