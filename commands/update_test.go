package commands

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aead.dev/minisign"
	"github.com/creack/pty"

	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/update"
)

// loamsVersion is a loams built as a release is: its version stamped by
// -ldflags, so it is an archive install and not a dev build.
func loamsVersion(t *testing.T, version string) string {
	t.Helper()
	return testbin.Build(t, "./cmd/loams", "-X loams.dev/cli/internal/buildinfo.version="+version)
}

// oldAndNew is an update's two releases: the new loams's bytes (0.2.0, for
// the channel to serve), and the old one (0.1.0) with its bytes, which a
// rollback must give back exactly.
func oldAndNew(t *testing.T) (newBin []byte, old string, oldBytes []byte) {
	t.Helper()
	newBin, err := os.ReadFile(loamsVersion(t, "0.2.0"))
	if err != nil {
		t.Fatal(err)
	}
	old = loamsVersion(t, "0.1.0")
	if oldBytes, err = os.ReadFile(old); err != nil {
		t.Fatal(err)
	}
	return newBin, old, oldBytes
}

// installed copies bin into a fresh directory, as a user's installed loams.
func installed(t *testing.T, bin string, dir ...string) string {
	t.Helper()
	d := filepath.Join(append([]string{t.TempDir()}, dir...)...)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(d, "loams")
	// A hard link, not a copy: a file this process just wrote can still be
	// open for writing in a child another test is forking (the fd is
	// closed only at its exec), and running it then fails with "text file
	// busy". loams update replaces the file by rename, never in place, so
	// the shared inode is never written.
	if err := os.Link(bin, p); err == nil {
		return p
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// channel is a loams release served on 127.0.0.1: checksums.txt, its
// minisign signature and this platform's archive, as goreleaser names them.
type channel struct {
	URL, PublicKey string
	Files          map[string][]byte
	Checks         atomic.Int32 // checksums.txt requests
	// Release lets a hung channel answer (empty) from now on.
	Release func()
}

type channelOptions struct {
	Version       string
	Binary        []byte
	Tamper        bool // serve other bytes than checksums.txt names
	SignWithOther bool
	Hang          bool // never answer until the test ends
}

func serveChannel(t *testing.T, o channelOptions) *channel {
	t.Helper()
	name := update.ArchiveName(o.Version, runtime.GOOS, runtime.GOARCH)
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range []struct {
		name string
		body []byte
	}{{"README.md", []byte("readme\n")}, {"loams", o.Binary}} {
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o755, Size: int64(len(e.body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(e.body)
	}
	tw.Close()
	gz.Close()
	archive := buf.Bytes()
	sum := sha256.Sum256(archive)
	sums := fmt.Sprintf("%s  %s\n%064x  loams_%s_plan9_mips.tar.gz\n", hex.EncodeToString(sum[:]), name, 1, o.Version)
	if o.Tamper {
		archive = append(append([]byte{}, archive[:len(archive)/2]...), 'x')
	}
	pub, priv, _ := minisign.GenerateKey(rand.Reader)
	signer := priv
	if o.SignWithOther {
		_, signer, _ = minisign.GenerateKey(rand.Reader)
	}
	pubText, _ := pub.MarshalText()
	c := &channel{PublicKey: string(pubText), Files: map[string][]byte{
		"checksums.txt": []byte(sums), "checksums.txt.minisig": minisign.Sign(signer, []byte(sums)), name: archive}}
	release := make(chan struct{})
	var once sync.Once
	c.Release = func() { once.Do(func() { close(release) }) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimPrefix(r.URL.Path, "/")
		if path == "checksums.txt" {
			c.Checks.Add(1)
		}
		if o.Hang {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		data, ok := c.Files[path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(c.Release) // runs first: lets hung handlers return
	c.URL = srv.URL + "/"
	return c
}

// versionOf asks a loams binary its version.
func versionOf(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "version", "-o", "json")
	cmd.Env = []string{"LOAMS_HOME=" + t.TempDir(), "LOAMS_NO_UPDATE_NOTIFIER=1"}
	out, err := cmd.Output()
	var v struct{ Version string }
	if err != nil || json.Unmarshal(out, &v) != nil {
		t.Fatalf("%s version: %v %s", bin, err, out)
	}
	return v.Version
}

// updateEnv is a clean environment: no CI, no inherited LOAMS_*.
func updateEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LOAMS_HOME=" + t.TempDir(), "TERM=dumb"}, extra...)
}

// atTerminal runs bin with its stderr on a pseudo-terminal (stdout piped)
// and returns both, the exit code and how long it took.
func atTerminal(t *testing.T, env []string, bin string, args ...string) (stdout, stderr string, code int, took time.Duration) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, tty
	errText := make(chan string, 1)
	go func() { b, _ := io.ReadAll(ptmx); errText <- string(b) }()
	start := time.Now()
	err = cmd.Run()
	took = time.Since(start)
	tty.Close()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), strings.ReplaceAll(<-errText, "\r\n", "\n"), code, took
}
