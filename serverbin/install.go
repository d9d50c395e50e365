package serverbin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/filehash"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
)

// DefaultReleasesURL is the server project's latest GitHub release.
const DefaultReleasesURL = "https://github.com/ostrium-labs/loams/releases/latest/download/"

// Installer is `loams server install`: manifest, signature, artifact,
// consent, download, checks, extraction, smoke test, atomic install.
type Installer struct {
	Home    home.Home
	Getenv  func(string) string
	Keys    []string // trusted minisign keys (release/minisign.pub, plus the test seam)
	Fetcher *Fetcher
	// Consent is asked before any download with its URL and size; it
	// returns nil to go ahead or the error that stops the install.
	Consent func(url string, size int64) error
	// Progress wraps the download stream (a progress bar on a TTY).
	Progress func(total int64) (wrap func(io.Reader) io.Reader, done func())
	// Warn prints a line on stderr (the unsigned-install warning).
	Warn         func(string)
	Now          func() time.Time
	GOOS, GOARCH string
}

// InstallOptions are the flags.
type InstallOptions struct {
	Version       string // "" = latest
	Variant       string // "" = standard
	From          string // a local archive or binary, or a URL of one
	AllowUnsigned bool
}

// Receipt is receipt.json beside an installed server.
type Receipt struct {
	Version     string    `json:"version"`
	Variant     string    `json:"variant"`
	Target      string    `json:"target"`
	InstalledAt time.Time `json:"installed_at"`
	SourceURL   string    `json:"source_url"`
	SHA256      string    `json:"sha256"`
	Path        string    `json:"path"`
	Signed      bool      `json:"signed"`
}

// ReleaseURL is where the manifest of version ("" = latest) lives.
func ReleaseURL(base, version string) string {
	if version == "" {
		return base
	}
	if base == DefaultReleasesURL {
		return "https://github.com/ostrium-labs/loams/releases/download/v" + strings.TrimPrefix(version, "v") + "/"
	}
	return strings.TrimSuffix(base, "/") + "/v" + strings.TrimPrefix(version, "v") + "/"
}

// Install runs the whole install and marks the new server current.
func (in *Installer) Install(ctx context.Context, o InstallOptions) (*Receipt, error) {
	if o.Variant == "" {
		o.Variant = "standard"
	}
	if err := CheckVariant(o.Variant); err != nil {
		return nil, err
	}
	if o.From != "" {
		return in.installFrom(ctx, o)
	}
	base := in.Getenv("LOAMS_RELEASES_URL")
	if base == "" {
		base = DefaultReleasesURL
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	relURL := ReleaseURL(base, o.Version)
	manifestURL := relURL + "loams-release.json"
	if len(in.Keys) == 0 {
		// Nothing can be verified: only HTTPS (or this machine) protects
		// the manifest's SHA-256, on every hop, before any connection.
		in.withRule(RequireHTTPS("an unsigned release", "use an https:// LOAMS_RELEASES_URL (or a release on this machine)"))
	}
	// The manifest first: whether a release exists at all is the first
	// thing the user needs to know, before any question of keys.
	data, err := in.Fetcher.Get(ctx, manifestURL, 1<<20)
	if err != nil {
		return nil, notPublished(err, relURL, o.Version)
	}
	signed, err := in.checkTrust(manifestURL, o.AllowUnsigned)
	if err != nil {
		return nil, err
	}
	if signed {
		sig, err := in.Fetcher.Get(ctx, manifestURL+".minisig", 1<<16)
		if err != nil {
			return nil, err
		}
		if err := Verify(data, sig, in.Keys); err != nil {
			if e := (*errs.Error)(nil); errors.As(err, &e) {
				e.With("url", manifestURL)
			}
			return nil, err
		}
	}
	m, err := ParseManifest(data, manifestURL)
	if err != nil {
		return nil, err
	}
	if o.Version != "" && strings.TrimPrefix(o.Version, "v") != m.Version {
		return nil, errs.New(errs.ManifestInvalid, "check LOAMS_RELEASES_URL", "asked for %s but the manifest at %s is %s", o.Version, manifestURL, m.Version)
	}
	target := Target(in.GOOS, in.GOARCH)
	if target == "" {
		return nil, errs.New(errs.PlatformUnsupported, "build the server from its source with cargo (`loams docs search \"get the loams server\"`) and point LOAMS_SERVER_BINARY at it",
			"the Loams server is not released for %s/%s", in.GOOS, in.GOARCH)
	}
	a, err := m.Pick(o.Variant, target)
	if err != nil {
		return nil, err
	}
	artURL, err := resolve(manifestURL, a.URL)
	if err != nil {
		return nil, err
	}
	if r, ok := in.alreadyInstalled(m.Version, a); ok {
		return r, safefile.Write(currentFile(in.Home), []byte(r.Path+"\n"), 0o600)
	}
	if err := in.Consent(artURL, a.Size); err != nil {
		return nil, err
	}
	staging, cleanup, err := in.staging()
	if err != nil {
		return nil, err
	}
	defer cleanup()
	archive := filepath.Join(staging, "archive.tar.xz")
	if err := in.download(ctx, artURL, archive, a.Size); err != nil {
		return nil, err
	}
	if err := checkSum(archive, a); err != nil {
		return nil, err
	}
	r := &Receipt{Version: m.Version, Variant: a.Variant, Target: a.Target, SourceURL: artURL, SHA256: a.SHA256, Signed: signed}
	return in.finish(ctx, staging, archive, r)
}

// withRule makes the installer's fetches (and their redirects) obey r.
func (in *Installer) withRule(r HopRule) {
	f := Fetcher{}
	if in.Fetcher != nil {
		f = *in.Fetcher
	}
	f.Rule = r
	in.Fetcher = &f
}

// alreadyInstalled finds this very artifact installed (same SHA-256):
// nothing to download, it only becomes current again.
func (in *Installer) alreadyInstalled(version string, a Artifact) (*Receipt, bool) {
	for _, r := range Installed(in.Home) {
		if r.Version == version && r.Variant == a.Variant && strings.EqualFold(r.SHA256, a.SHA256) && isFile(r.Path) {
			return &r, true
		}
	}
	return nil, false
}

func resolve(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", errs.New(errs.ManifestInvalid, "report the release to the server project", "artifact URL %q: %v", ref, err)
	}
	return b.ResolveReference(r).String(), nil
}

// staging is a fresh directory under servers/, on the same file system as
// the destination so the final move is a rename.
func (in *Installer) staging() (string, func(), error) {
	if err := in.Home.Ensure(); err != nil {
		return "", nil, err
	}
	if err := os.MkdirAll(ServersDir(in.Home), 0o700); err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp(ServersDir(in.Home), ".staging-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

func (in *Installer) download(ctx context.Context, src, dest string, size int64) error {
	f, err := os.OpenFile(dest, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	var wrap func(io.Reader) io.Reader
	if in.Progress != nil {
		var done func()
		wrap, done = in.Progress(size)
		defer done()
	}
	if size < 0 {
		size = maxBinary // --from URL: no manifest states a size
	}
	return in.Fetcher.Download(ctx, src, f, size, wrap)
}

// checkSum compares size and SHA-256 with the manifest before anything is
// extracted.
func checkSum(path string, a Artifact) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	got, n, err := filehash.Reader(f)
	if err != nil {
		return err
	}
	if n != a.Size || !strings.EqualFold(got, a.SHA256) {
		return errs.New(errs.ChecksumMismatch, "nothing was installed; run the command again, and report it to the server project if it repeats",
			"the downloaded archive does not match the manifest (size %d, want %d; sha256 %s, want %s)", n, a.Size, got, a.SHA256).
			With("url", a.URL).With("size_bytes", n).With("sha256", got)
	}
	return nil
}

// finish extracts (or takes) the binary, smoke-tests it, and installs it.
func (in *Installer) finish(ctx context.Context, staging, archive string, r *Receipt) (*Receipt, error) {
	bin := filepath.Join(staging, "loams")
	if archive != "" {
		f, err := os.Open(archive)
		if err != nil {
			return nil, err
		}
		err = ExtractServer(f, bin)
		f.Close()
		if err != nil {
			return nil, err
		}
		_ = os.Remove(archive)
	}
	b, _ := ask(ctx, bin)
	if !b.IsServer {
		return nil, errs.New(errs.ServerError, "nothing was installed; check that the release is for this machine",
			"the new server failed its smoke test: %s", b.Why)
	}
	if r.Version == "" {
		v, ok := ParseVersion(b.Version)
		if !ok {
			return nil, errs.New(errs.ServerError, "nothing was installed", "the new server's --version (%q) names no version", b.Version)
		}
		r.Version = v.String()
	} else if v, ok := ParseVersion(b.Version); !ok || v.String() != r.Version {
		return nil, errs.New(errs.ServerError, "nothing was installed; report the release to the server project",
			"the new server says %q, the manifest says %s", b.Version, r.Version)
	}
	dir, err := installDir(in.Home, r.Version, r.Variant)
	if err != nil {
		return nil, err
	}
	r.Path, r.InstalledAt = filepath.Join(dir, "loams"), in.now().UTC().Truncate(time.Second)
	data, _ := json.MarshalIndent(r, "", "  ")
	if err := safefile.Write(filepath.Join(staging, "receipt.json"), append(data, '\n'), 0o600); err != nil {
		return nil, err
	}
	if err := os.Chmod(staging, 0o755); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return nil, err
	}
	// Swap directories: a reader sees the old install or the new one.
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = dir + ".old-" + fmt.Sprint(in.now().UnixNano())
		if err := os.Rename(dir, old); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(staging, dir); err != nil {
		if old != "" {
			_ = os.Rename(old, dir)
		}
		return nil, err
	}
	if old != "" {
		_ = os.RemoveAll(old)
	}
	if err := safefile.Write(currentFile(in.Home), []byte(r.Path+"\n"), 0o600); err != nil {
		return nil, err
	}
	return r, nil
}

func (in *Installer) now() time.Time {
	if in.Now == nil {
		return time.Now()
	}
	return in.Now()
}
