package serverbin_test

import (
	"archive/tar"
	"context"
	"encoding/json"
	"loams.dev/cli/internal/testkit/testbin"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/testkit/testrelease"
	"loams.dev/cli/serverbin"
)

type installWorld struct {
	h        home.Home
	in       *serverbin.Installer
	consents []string
	warnings []string
}

func newInstaller(t *testing.T, rel *testrelease.Release, keys ...string) *installWorld {
	w := &installWorld{h: home.Home{Dir: t.TempDir()}}
	env := map[string]string{}
	if rel != nil {
		env["LOAMS_RELEASES_URL"] = rel.URL
	}
	w.in = &serverbin.Installer{Home: w.h, Getenv: func(k string) string { return env[k] }, Keys: keys,
		Fetcher: &serverbin.Fetcher{Backoff: time.Millisecond},
		Consent: func(url string, size int64) error { w.consents = append(w.consents, url); return nil },
		Warn:    func(s string) { w.warnings = append(w.warnings, s) }}
	return w
}

// nothingInstalled: no version directory, no current, no staging left.
func (w *installWorld) nothingInstalled(t *testing.T) {
	t.Helper()
	entries, _ := os.ReadDir(serverbin.ServersDir(w.h))
	if len(entries) != 0 || serverbin.Current(w.h) != "" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("something was installed: %v current=%q", names, serverbin.Current(w.h))
	}
}

func TestInstallVerifiedRelease(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	rel.FailFirst.Store(1) // one transient 503: retried
	w := newInstaller(t, rel, rel.PublicKey)
	r, err := w.in.Install(context.Background(), serverbin.InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(serverbin.ServersDir(w.h), "0.3.0", "standard", "loams")
	if r.Path != want || r.Version != "0.3.0" || !r.Signed || len(w.consents) != 1 || !strings.HasSuffix(w.consents[0], ".tar.xz") {
		t.Fatalf("receipt %+v consents %v", r, w.consents)
	}
	fi, err := os.Stat(want)
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("installed binary: %v %v", err, fi)
	}
	var rec serverbin.Receipt
	data, _ := os.ReadFile(filepath.Join(filepath.Dir(want), "receipt.json"))
	if json.Unmarshal(data, &rec) != nil || rec.SHA256 != rel.Manifest.Artifacts[0].SHA256 || rec.Target == "" || rec.SourceURL == "" {
		t.Errorf("receipt.json: %s", data)
	}
	if serverbin.Current(w.h) != want || rel.Requests.Load() != 1 {
		t.Errorf("current %q, downloads %d", serverbin.Current(w.h), rel.Requests.Load())
	}
	f := &serverbin.Finder{Home: w.h, Getenv: func(string) string { return "" }, Root: t.TempDir()}
	if b, c, err := f.Find(context.Background()); err != nil || b.Path != want || c.Source != serverbin.SourceInstalled || b.Version != "0.3.0" {
		t.Errorf("find after install: %v %+v", err, c)
	}
	// Installing it again downloads nothing and asks nothing.
	if r2, err := w.in.Install(context.Background(), serverbin.InstallOptions{}); err != nil || r2.Path != want || len(w.consents) != 1 || rel.Requests.Load() != 1 {
		t.Errorf("reinstall: %v, %d consents, %d downloads", err, len(w.consents), rel.Requests.Load())
	}
	if n, _ := serverbin.Remove(w.h, "0.3.0"); !n || serverbin.Current(w.h) != "" {
		t.Errorf("remove: %v, current %q", n, serverbin.Current(w.h))
	}
}

func TestInstallRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		opts   testrelease.Options
		inst   serverbin.InstallOptions
		noKey  bool
		code   errs.Code
		inText string
	}{
		{"tampered archive", testrelease.Options{Tamper: func(b []byte) []byte { b = append([]byte{}, b...); b[len(b)/2] ^= 1; return b }},
			serverbin.InstallOptions{}, false, errs.ChecksumMismatch, "does not match the manifest"},
		{"unknown key", testrelease.Options{SignWithOtherKey: true}, serverbin.InstallOptions{}, false, errs.SignatureInvalid, "signature"},
		{"no key compiled in", testrelease.Options{}, serverbin.InstallOptions{}, true, errs.SignatureInvalid, "no key"},
		{"a symlink", testrelease.Options{Entries: []testrelease.Entry{{Name: "loams", Typeflag: tar.TypeSymlink, Linkname: "/bin/sh"}}},
			serverbin.InstallOptions{}, false, errs.ManifestInvalid, "is a link"},
		{"a .. path", testrelease.Options{Entries: []testrelease.Entry{{Name: "../loams", Body: []byte("#!/bin/sh\n")}}},
			serverbin.InstallOptions{}, false, errs.ManifestInvalid, "climbs out"},
		{"an absolute path", testrelease.Options{Entries: []testrelease.Entry{{Name: "/tmp/loams", Body: []byte("x")}}},
			serverbin.InstallOptions{}, false, errs.ManifestInvalid, "absolute"},
		{"not a server", testrelease.Options{Entries: []testrelease.Entry{{Name: "loams", Body: []byte("#!/bin/sh\necho hi\n")}}},
			serverbin.InstallOptions{}, false, errs.ServerError, "smoke test"},
		{"unknown variant", testrelease.Options{}, serverbin.InstallOptions{Variant: "full"}, false, errs.VariantNotFound, "no full build"},
		{"wrong version", testrelease.Options{}, serverbin.InstallOptions{Version: "9.9.9"}, false, errs.ReleaseNotPublished, "9.9.9 is not published"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rel := testrelease.Serve(t, tc.opts)
			keys := []string{rel.PublicKey}
			if tc.noKey {
				keys = nil
			}
			w := newInstaller(t, rel, keys...)
			_, err := w.in.Install(context.Background(), tc.inst)
			e := errs.As(err)
			if e.Code != tc.code || !strings.Contains(e.Message, tc.inText) || e.Hint == "" {
				t.Fatalf("want %s containing %q, got %s: %s (hint %q)", tc.code, tc.inText, e.Code, e.Message, e.Hint)
			}
			w.nothingInstalled(t)
		})
	}
}

// Without a compiled-in key, --allow-unsigned installs and says so loudly.
func TestInstallUnsigned(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	w := newInstaller(t, rel)
	r, err := w.in.Install(context.Background(), serverbin.InstallOptions{AllowUnsigned: true})
	if err != nil || r.Signed || len(w.warnings) != 1 || !strings.Contains(w.warnings[0], "UNSIGNED") {
		t.Fatalf("%v %+v %v", err, r, w.warnings)
	}
}

// --from takes an archive or a bare binary; the version is the binary's.
func TestInstallFromFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "server")
	if err := testbin.WriteExecutable(bin, testrelease.StandIn(t, "0.4.1")); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "loams.tar.xz")
	data, _ := os.ReadFile(bin)
	if err := os.WriteFile(archive, testrelease.Archive(t, []testrelease.Entry{{Name: "loams", Body: data}}), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, from := range []string{bin, archive} {
		w := newInstaller(t, nil)
		r, err := w.in.Install(context.Background(), serverbin.InstallOptions{From: from})
		if err != nil || r.Version != "0.4.1" || serverbin.Current(w.h) != r.Path || len(w.consents) != 0 {
			t.Fatalf("--from %s: %v %+v", from, err, r)
		}
	}
}

// An air-gapped mirror on disk: LOAMS_RELEASES_URL=file:///…/
func TestInstallFromFileMirror(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	dir := t.TempDir()
	for name, data := range rel.Files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := newInstaller(t, nil, rel.PublicKey)
	w.in.Getenv = func(k string) string {
		if k == "LOAMS_RELEASES_URL" {
			return "file://" + dir + "/"
		}
		return ""
	}
	if r, err := w.in.Install(context.Background(), serverbin.InstallOptions{}); err != nil || r.Version != "0.3.0" || !r.Signed {
		t.Fatalf("%v %+v", err, r)
	}
}

// Nothing published at the release URL (today's truth): the answer is
// release_not_published naming the URL and the ways that work, before any
// question of keys, so --allow-unsigned is not offered as the way out.
func TestInstallNothingPublished(t *testing.T) {
	t.Parallel()
	empty := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(empty.Close)
	for _, allowUnsigned := range []bool{false, true} {
		w := newInstaller(t, &testrelease.Release{URL: empty.URL + "/"})
		_, err := w.in.Install(context.Background(), serverbin.InstallOptions{AllowUnsigned: allowUnsigned})
		e := errs.As(err)
		if e.Code != errs.ReleaseNotPublished || e.ExitCode() != 4 || e.Details["url"] != empty.URL+"/loams-release.json" ||
			!strings.Contains(e.Message, empty.URL) || strings.Contains(e.Hint, "allow-unsigned") {
			t.Fatalf("allow-unsigned=%v: %s: %s (hint %q, details %v)", allowUnsigned, e.Code, e.Message, e.Hint, e.Details)
		}
		for _, way := range []string{"LOAMS_SERVER_BINARY", "--server-binary", "server_binary", "--from", "/usr/bin/loams", "cargo install"} {
			if !strings.Contains(e.Hint, way) {
				t.Errorf("the hint does not name %s: %s", way, e.Hint)
			}
		}
		if len(w.warnings) != 0 {
			t.Errorf("warned about an unsigned install that never began: %v", w.warnings)
		}
		w.nothingInstalled(t)
	}
}
