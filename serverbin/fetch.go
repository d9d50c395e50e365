package serverbin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
)

// Fetcher gets release files over HTTP, retrying transient failures
// (connection errors, 5xx, 429) with backoff.
type Fetcher struct {
	Client  *http.Client
	Retries int           // attempts after the first; 0 = 3
	Backoff time.Duration // first wait, doubled each time; 0 = 500 ms
}

func (f *Fetcher) client() *http.Client {
	if f.Client != nil {
		return f.Client
	}
	return &http.Client{Timeout: 30 * time.Minute, Transport: &http.Transport{
		Proxy: http.ProxyFromEnvironment, DialContext: (&net.Dialer{Timeout: 15 * time.Second}).DialContext,
		TLSHandshakeTimeout: 15 * time.Second, ResponseHeaderTimeout: 30 * time.Second}}
}

// errPermanent marks an answer a retry will not change (404, 403).
type errPermanent struct{ error }

// Get reads a small file (a manifest, a signature) into memory.
func (f *Fetcher) Get(ctx context.Context, url string, limit int64) ([]byte, error) {
	var data []byte
	err := f.retry(ctx, url, func(body io.Reader) error {
		var err error
		data, err = io.ReadAll(io.LimitReader(body, limit))
		return err
	})
	return data, err
}

// Download streams url into w (rewound to the start on each attempt).
func (f *Fetcher) Download(ctx context.Context, url string, w *os.File, progress func(io.Reader) io.Reader) error {
	return f.retry(ctx, url, func(body io.Reader) error {
		if _, err := w.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if err := w.Truncate(0); err != nil {
			return err
		}
		if progress != nil {
			body = progress(body)
		}
		_, err := io.Copy(w, body)
		return err
	})
}

func (f *Fetcher) retry(ctx context.Context, url string, read func(io.Reader) error) error {
	retries, wait := f.Retries, f.Backoff
	if retries == 0 {
		retries = 3
	}
	if wait == 0 {
		wait = 500 * time.Millisecond
	}
	var last error
	for attempt := 0; attempt <= retries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		last = f.once(ctx, url, read)
		var perm errPermanent
		if last == nil || errors.As(last, &perm) || ctx.Err() != nil {
			break
		}
	}
	if last == nil {
		return nil
	}
	var perm errPermanent
	if errors.As(last, &perm) {
		return perm.error
	}
	return errs.New(errs.EndpointUnreachable, "check the network (or LOAMS_RELEASES_URL) and run the command again",
		"downloading %s failed after %d attempts: %v", url, retries+1, last).With("url", url).Wrap(last)
}

func (f *Fetcher) once(ctx context.Context, url string, read func(io.Reader) error) error {
	if path, ok := strings.CutPrefix(url, "file://"); ok { // a mirror on disk, for air-gapped installs
		file, err := os.Open(path)
		if err != nil {
			return errPermanent{errs.New(errs.ManifestInvalid, "check LOAMS_RELEASES_URL", "%s: %v", url, err).With("url", url)}
		}
		defer file.Close()
		return read(file)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return errPermanent{errs.New(errs.Usage, "give an http(s) URL", "bad URL %q: %v", url, err)}
	}
	resp, err := f.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
		return read(resp.Body)
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return fmt.Errorf("%s answered %s", url, resp.Status)
	}
	return errPermanent{errs.New(errs.ManifestInvalid, "check --version and LOAMS_RELEASES_URL; `loams server install` without --version takes the latest release",
		"%s answered %s", url, resp.Status).With("url", url).With("status", resp.StatusCode)}
}
