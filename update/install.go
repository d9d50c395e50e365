package update

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"aead.dev/minisign"

	"loams.dev/cli/internal/archive"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/filehash"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/serverbin"
)

// Updater is `loams update` for an archive install: the signed checksums,
// the archive, its SHA-256, the new binary's smoke test, an atomic swap,
// and the previous binary kept for --rollback.
type Updater struct {
	Home    home.Home
	Getenv  func(string) string
	Keys    []string // trusted minisign keys (release/cli-minisign.pub, plus the test seam)
	Fetcher *serverbin.Fetcher
	Exe     string // the running loams, symlinks resolved
	Current string // its version
	Warn    func(string)
	Now     func() time.Time

	exeAtStart os.FileInfo // u.Exe when Update or Rollback began (lock.go)
}

// Options are the flags of `loams update`.
type Options struct {
	Version       string // "" = the latest
	AllowUnsigned bool
}

// Result is what an update or a rollback did.
type Result struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Path     string `json:"path"`
	Previous string `json:"previous,omitempty"` // where the replaced binary is kept
	Signed   bool   `json:"signed"`
	UpToDate bool   `json:"up_to_date,omitempty"`
}

func (u *Updater) previousDir() string { return filepath.Join(u.Home.Dir, "update") }
func binName() string {
	if runtime.GOOS == "windows" {
		return "loams.exe"
	}
	return "loams"
}

// Update installs the newest release (or o.Version) over u.Exe.
func (u *Updater) Update(ctx context.Context, o Options) (*Result, error) {
	u.exeAtStart, _ = os.Stat(u.Exe)
	unlock, err := u.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	relURL := ReleaseURL(BaseURL(u.Getenv), o.Version)
	sumsURL := relURL + ChecksumsFile
	signed, err := u.checkTrust(sumsURL, o.AllowUnsigned)
	if err != nil {
		return nil, err
	}
	if !signed { // every hop of an unsigned update obeys the rule checkTrust applied to the first
		f := *u.Fetcher
		f.Rule = serverbin.RequireHTTPS("an unsigned release", "use an https:// LOAMS_CLI_RELEASES_URL for an unsigned update")
		u.Fetcher = &f
	}
	data, err := u.Fetcher.Get(ctx, sumsURL, 1<<20)
	if err != nil {
		return nil, err
	}
	if signed {
		sig, err := u.Fetcher.Get(ctx, sumsURL+".minisig", 1<<16)
		if err != nil {
			return nil, err
		}
		if !verify(data, sig, u.Keys) {
			return nil, errs.New(errs.SignatureInvalid, "nothing was changed; do not use this release (check LOAMS_CLI_RELEASES_URL)",
				"the signature of %s does not match any trusted key", sumsURL).With("url", sumsURL)
		}
	}
	sums, err := ParseChecksums(data, sumsURL)
	if err != nil {
		return nil, err
	}
	version, ok := sums.Version()
	if !ok || o.Version != "" && version != strings.TrimPrefix(o.Version, "v") {
		return nil, errs.New(errs.ManifestInvalid, "check LOAMS_CLI_RELEASES_URL and --version", "%s does not list the archives of release %s", sumsURL, o.Version).With("url", sumsURL)
	}
	res := &Result{From: u.Current, To: version, Path: u.Exe, Signed: signed}
	if o.Version == "" && !Newer(version, u.Current) {
		res.UpToDate = true
		return res, nil
	}
	name := ArchiveName(version, runtime.GOOS, runtime.GOARCH)
	sum, ok := sums[name]
	if !ok {
		return nil, errs.New(errs.PlatformUnsupported, "build it from a clone: `git clone "+Repository+" && cd loams && git checkout v"+version+" && go install ./cmd/loams`",
			"release %s has no archive for %s/%s", version, runtime.GOOS, runtime.GOARCH).With("archive", name)
	}
	staging, err := os.MkdirTemp(filepath.Dir(u.Exe), ".loams-update-")
	if err != nil {
		return nil, errs.New(errs.Forbidden, "run `loams update` as the user who owns "+filepath.Dir(u.Exe)+", or reinstall loams somewhere you can write",
			"cannot write beside %s: %v", u.Exe, err).With("path", filepath.Dir(u.Exe)).Wrap(err)
	}
	defer os.RemoveAll(staging)
	archive := filepath.Join(staging, name)
	if err := u.download(ctx, relURL+name, archive, sum); err != nil {
		return nil, err
	}
	bin := filepath.Join(staging, binName())
	if err := extract(archive, binName(), bin); err != nil {
		return nil, err
	}
	if err := smokeTest(ctx, bin, version); err != nil {
		return nil, err
	}
	kept, err := u.keep(u.Exe, u.Current)
	if err != nil {
		return nil, err
	}
	res.Previous = kept
	return res, replace(u.Exe, bin)
}

// Rollback puts the kept previous binary back, and keeps the one it
// replaces: a second rollback undoes the first.
func (u *Updater) Rollback(ctx context.Context) (*Result, error) {
	u.exeAtStart, _ = os.Stat(u.Exe)
	unlock, err := u.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p, err := u.readPrevious()
	if err != nil {
		return nil, err
	}
	if err := smokeTest(ctx, p.Binary, p.Version); err != nil {
		return nil, err
	}
	staging, err := os.MkdirTemp(filepath.Dir(u.Exe), ".loams-rollback-")
	if err != nil {
		return nil, errs.New(errs.Forbidden, "run it as the user who owns "+filepath.Dir(u.Exe), "cannot write beside %s: %v", u.Exe, err).Wrap(err)
	}
	defer os.RemoveAll(staging)
	bin := filepath.Join(staging, binName())
	if err := copyExec(p.Binary, bin); err != nil {
		return nil, err
	}
	kept, err := u.keep(u.Exe, u.Current)
	if err != nil {
		return nil, err
	}
	return &Result{From: u.Current, To: p.Version, Path: u.Exe, Previous: kept}, replace(u.Exe, bin)
}

// maxArchive caps a CLI archive download: checksums.txt states no size,
// and a loams archive is about 10 MB, so a mirror that streams far more
// is stopped (as server downloads are at the manifest's size).
const maxArchive = 256 << 20

func (u *Updater) download(ctx context.Context, src, dest, want string) error {
	f, err := os.OpenFile(dest, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		return errs.FromOS(err)
	}
	defer f.Close()
	if err := u.Fetcher.Download(ctx, src, f, maxArchive, nil); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	got, _, err := filehash.Reader(f)
	if err != nil {
		return err
	}
	if got != want {
		return errs.New(errs.ChecksumMismatch, "nothing was changed; run `loams update` again, and report it if it repeats",
			"the downloaded %s does not match checksums.txt (sha256 %s, want %s)", filepath.Base(src), got, want).
			With("url", src).With("sha256", got)
	}
	return nil
}

// smokeTest runs the new binary's `version` and wants the release's
// version back: a binary for the wrong machine, or a broken one, never
// replaces a working loams.
func smokeTest(ctx context.Context, bin, version string) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "version", "--output", "json")
	cmd.Env = append(os.Environ(), "LOAMS_NO_UPDATE_NOTIFIER=1")
	// A child of the binary that keeps stdout open must not hold the
	// smoke test after the binary itself has answered and exited.
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrWaitDelay) { // it exited 0; only its child lingered
		err = nil
	}
	var v struct{ Version string }
	if err == nil {
		err = json.Unmarshal(out, &v)
	}
	if err != nil || v.Version != version {
		return errs.New(errs.ServerError, "nothing was changed; the release may not be for this machine",
			"the new loams failed its smoke test (`version` said %q, want %s): %v", strings.TrimSpace(string(out)), version, err).With("path", bin)
	}
	return nil
}

// checkTrust: signed whenever a key is compiled in; without one only
// --allow-unsigned goes on, loudly, and only over HTTPS or loopback.
func (u *Updater) checkTrust(sumsURL string, allowUnsigned bool) (bool, error) {
	if len(u.Keys) > 0 {
		return true, nil
	}
	if !allowUnsigned {
		return false, errs.New(errs.SignatureInvalid, "pass --allow-unsigned to trust the HTTPS download's checksums alone, or upgrade with your package manager",
			"this loams has no key to verify loams releases with")
	}
	pu, err := url.Parse(sumsURL)
	host := ""
	if err == nil {
		host = pu.Hostname()
	}
	ip := net.ParseIP(host)
	if err != nil || pu.Scheme != "https" && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return false, errs.New(errs.InsecureEndpoint, "use an https:// LOAMS_CLI_RELEASES_URL for an unsigned update",
			"an unsigned release must come over HTTPS, not %s", sumsURL).With("url", sumsURL)
	}
	u.Warn("warning: installing an UNSIGNED loams release: only the checksums from " + pu.Host + " protect this download")
	return false, nil
}

func verify(msg, sig []byte, keys []string) bool {
	for _, k := range keys {
		var pk minisign.PublicKey
		if pk.UnmarshalText([]byte(k)) == nil && minisign.Verify(pk, msg, sig) {
			return true
		}
	}
	return false
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func copyExec(src, dest string) error {
	in, err := os.Open(src)
	if err != nil {
		return errs.FromOS(err)
	}
	defer in.Close()
	return archive.WriteExec(dest, in, maxBinary, badArchive)
}
