// Package testrelease builds fixture Loams server releases for tests: the
// stand-in server packed as loams-<variant>-<target>.tar.xz, a manifest,
// its minisign signature by a key generated for the test, all served on
// 127.0.0.1 by httptest. Only tests import it.
package testrelease

import (
	"archive/tar"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"aead.dev/minisign"
	"github.com/ulikunitz/xz"

	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/serverbin"
)

// Entry is one file of a fixture archive.
type Entry struct {
	Name     string
	Body     []byte
	Typeflag byte   // tar.TypeReg when 0
	Linkname string // for links
}

// Release is a served fixture release.
type Release struct {
	URL       string // LOAMS_RELEASES_URL
	PublicKey string // the base64 key line that verifies the manifest
	Version   string
	Manifest  serverbin.Manifest
	Files     map[string][]byte // served paths (relative to URL)
	Requests  atomic.Int32      // archive downloads answered
	FailFirst atomic.Int32      // answer 503 to this many archive requests first
}

// Options shape a fixture.
type Options struct {
	Version string  // default 0.3.0
	Variant string  // default standard
	Entries []Entry // default: the stand-in as `loams`, plus a LICENSE
	// Tamper replaces the archive's bytes after the manifest was written.
	Tamper func([]byte) []byte
	// SignWith signs with another key than the one PublicKey names.
	SignWithOtherKey bool
	// ServeArchive, when set, answers the archive request in place of
	// the plain write (a mirror that stalls, or streams too much).
	ServeArchive func(w http.ResponseWriter, r *http.Request, archive []byte)
}

// StandIn is a server that says `loams <version>`: a tiny script that
// runs the stand-in with that version. A script rather than the stand-in
// itself because xz-compressing a Go binary takes seconds per archive.
func StandIn(t testing.TB, version string) []byte {
	t.Helper()
	bin := testbin.Build(t, "./internal/testkit/testserver")
	return []byte("#!/bin/sh\nTESTSERVER_VERSION='loams " + version + "' exec '" + bin + "' \"$@\"\n")
}

// Archive packs entries as a .tar.xz.
func Archive(t testing.TB, entries []Entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	xw, err := xz.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(xw)
	for _, e := range entries {
		h := &tar.Header{Name: e.Name, Mode: 0o755, Size: int64(len(e.Body)), Typeflag: e.Typeflag, Linkname: e.Linkname, ModTime: time.Now()}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write(e.Body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := xw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Serve builds and serves a release for this platform.
func Serve(t testing.TB, o Options) *Release {
	t.Helper()
	if o.Version == "" {
		o.Version = "0.3.0"
	}
	if o.Variant == "" {
		o.Variant = "standard"
	}
	target := serverbin.Target("", "")
	name := "loams-" + o.Variant + "-" + target + ".tar.xz"
	if o.Entries == nil {
		o.Entries = []Entry{{Name: "loams", Body: StandIn(t, o.Version)}, {Name: "LICENSE", Body: []byte("fixture\n")}}
	}
	archive := Archive(t, o.Entries)
	sum := sha256.Sum256(archive)
	m := serverbin.Manifest{Schema: 1, Version: o.Version, Channel: "stable", PublishedAt: "2026-12-01T00:00:00Z", OutputSchema: 1,
		DocsVersion: o.Version, Artifacts: []serverbin.Artifact{
			{Variant: o.Variant, Target: target, URL: url.PathEscape(name), SHA256: hex.EncodeToString(sum[:]), Size: int64(len(archive)), Features: []string{"es", "qdrant"}},
			{Variant: "cli", Target: target, URL: "loams-cli-" + target + ".tar.xz", SHA256: "00", Size: 1},
		}}
	if o.Tamper != nil {
		archive = o.Tamper(archive)
	}
	manifest, _ := json.MarshalIndent(m, "", "  ")
	pub, priv, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer := priv
	if o.SignWithOtherKey {
		if _, signer, err = minisign.GenerateKey(rand.Reader); err != nil {
			t.Fatal(err)
		}
	}
	pubText, _ := pub.MarshalText()
	r := &Release{PublicKey: string(pubText), Version: o.Version, Manifest: m, Files: map[string][]byte{
		"loams-release.json": manifest, "loams-release.json.minisig": minisign.Sign(signer, manifest), name: archive,
	}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		path := req.URL.Path[1:]
		data, ok := r.Files[path]
		if !ok {
			http.NotFound(w, req)
			return
		}
		if path == name {
			if r.FailFirst.Add(-1) >= 0 {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			r.Requests.Add(1)
			if o.ServeArchive != nil {
				o.ServeArchive(w, req, data)
				return
			}
		}
		_, _ = w.Write(data)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL + "/"
	return r
}
