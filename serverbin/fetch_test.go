package serverbin_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/testkit/testrelease"
	"loams.dev/cli/serverbin"
)

// counting is the progress hook: it counts the bytes the install read.
func counting(n *atomic.Int64) func(int64) (func(io.Reader) io.Reader, func()) {
	return func(int64) (func(io.Reader) io.Reader, func()) {
		return func(r io.Reader) io.Reader { return &countReader{r, n} }, func() {}
	}
}

type countReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// The hostile review: a bad mirror streamed 400 MiB against a stated
// 4.5 MB. The download stops at the first byte past the manifest's size.
func TestDownloadCappedAtManifestSize(t *testing.T) {
	t.Parallel()
	const extra = 16 << 20
	for _, chunked := range []bool{false, true} {
		rel := testrelease.Serve(t, testrelease.Options{ServeArchive: func(w http.ResponseWriter, r *http.Request, archive []byte) {
			if !chunked { // an honest Content-Length that is too large
				w.Header().Set("Content-Length", strconv.Itoa(len(archive)+extra))
			}
			_, _ = w.Write(archive)
			junk := make([]byte, 64<<10)
			for sent := 0; sent < extra; sent += len(junk) {
				if _, err := w.Write(junk); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}})
		w := newInstaller(t, rel, rel.PublicKey)
		var read atomic.Int64
		w.in.Progress = counting(&read)
		_, err := w.in.Install(context.Background(), serverbin.InstallOptions{})
		e := errs.As(err)
		size := rel.Manifest.Artifacts[0].Size
		if e.Code != errs.ChecksumMismatch || !strings.Contains(e.Message, "more than") || e.Hint == "" {
			t.Fatalf("chunked=%v: want checksum_mismatch for too many bytes, got %s: %s", chunked, e.Code, e.Message)
		}
		if got := read.Load(); got > size+1 {
			t.Errorf("chunked=%v: read %d bytes against a stated %d", chunked, got, size)
		}
		if rel.Requests.Load() != 1 {
			t.Errorf("chunked=%v: retried a mirror that sends too much (%d requests)", chunked, rel.Requests.Load())
		}
		w.nothingInstalled(t)
	}
}

// A mirror that sends half the archive and then nothing: after the idle
// time the install stops with `timeout`, instead of waiting 30 minutes.
func TestDownloadStallTimesOut(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{ServeArchive: func(w http.ResponseWriter, r *http.Request, archive []byte) {
		_, _ = w.Write(archive[:len(archive)/2])
		w.(http.Flusher).Flush()
		<-r.Context().Done() // until the client gives up
	}})
	w := newInstaller(t, rel, rel.PublicKey)
	var read atomic.Int64
	w.in.Progress = counting(&read)
	// Short, because the mirror stalls for good: the only question is
	// whether the install notices.
	w.in.Fetcher.Idle = 300 * time.Millisecond
	_, err := w.in.Install(context.Background(), serverbin.InstallOptions{})
	e := errs.As(err)
	if e.Code != errs.Timeout || e.ExitCode() != 7 || !strings.Contains(e.Message, "sent nothing") || e.Details["url"] == nil {
		t.Fatalf("want timeout, got %s: %s %v", e.Code, e.Message, e.Details)
	}
	if read.Load() == 0 {
		t.Error("the progress hook saw no bytes")
	}
	w.nothingInstalled(t)
}

// A manifest is small: one past 1 MiB is not a release file, and is not
// read whole.
func TestManifestSizeBounded(t *testing.T) {
	t.Parallel()
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		junk := make([]byte, 64<<10)
		for i := 0; i < 64; i++ { // 4 MiB
			if _, err := w.Write(junk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(huge.Close)
	w := newInstaller(t, &testrelease.Release{URL: huge.URL + "/"})
	_, err := w.in.Install(context.Background(), serverbin.InstallOptions{AllowUnsigned: true})
	if e := errs.As(err); e.Code != errs.ManifestInvalid || !strings.Contains(e.Message, "larger than") {
		t.Fatalf("want manifest_invalid, got %s: %s", e.Code, e.Message)
	}
}
