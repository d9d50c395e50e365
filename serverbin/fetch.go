package serverbin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// Fetcher gets release files over HTTP, retrying transient failures
// (connection errors, 5xx, 429) with backoff. A body is never read past
// the size the caller allows, and a body that stops sending is given up
// after Idle: a bad mirror can neither fill the disk nor hang the install.
type Fetcher struct {
	Client  *http.Client
	Retries int           // attempts after the first; 0 = 3
	Backoff time.Duration // first wait, doubled each time; 0 = 500 ms
	Idle    time.Duration // longest wait for the next byte; 0 = DefaultIdle
	// Rule, when set, is checked on every URL and redirect before it is
	// fetched (RequireHTTPS for what no signature protects).
	Rule HopRule
}

// DefaultIdle is how long a download may send nothing before it is
// called stalled: long enough for a slow link, short enough that a
// stalled mirror is reported while the user still waits.
const DefaultIdle = 30 * time.Second

func (f *Fetcher) client() *http.Client {
	if f.Client != nil {
		c := *f.Client
		c.CheckRedirect = f.checkRedirect
		return &c
	}
	// No overall timeout: the idle watchdog bounds a stalled body, and a
	// large archive on a slow link may rightly take long.
	return &http.Client{CheckRedirect: f.checkRedirect, Transport: &http.Transport{
		Proxy: proxy, DialContext: (&net.Dialer{Timeout: 15 * time.Second}).DialContext,
		TLSHandshakeTimeout: 15 * time.Second}}
}

func (f *Fetcher) idle() time.Duration {
	if f.Idle > 0 {
		return f.Idle
	}
	return DefaultIdle
}

// errPermanent marks an answer a retry will not change (404, 403, a body
// larger than allowed, a stall).
type errPermanent struct{ error }

// Get reads a small file (a manifest, a signature) into memory; one larger
// than limit is manifest_invalid.
func (f *Fetcher) Get(ctx context.Context, url string, limit int64) ([]byte, error) {
	var data []byte
	err := f.retry(ctx, url, limit, func(body io.Reader) error {
		var err error
		data, err = io.ReadAll(body)
		return err
	})
	if errors.Is(err, errTooLarge) { // our own bound, not a size a manifest stated
		return nil, errs.New(errs.ManifestInvalid, "check LOAMS_RELEASES_URL points at a Loams release",
			"%s is larger than %d bytes: not a release file", url, limit).With("url", url)
	}
	return data, err
}

// Download streams url into w (rewound to the start on each attempt),
// refusing more than limit bytes.
func (f *Fetcher) Download(ctx context.Context, url string, w *os.File, limit int64, progress func(io.Reader) io.Reader) error {
	return f.retry(ctx, url, limit, func(body io.Reader) error {
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

func (f *Fetcher) retry(ctx context.Context, url string, limit int64, read func(io.Reader) error) error {
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
		last = f.once(ctx, url, limit, read)
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

func (f *Fetcher) once(ctx context.Context, url string, limit int64, read func(io.Reader) error) error {
	if f.Rule != nil {
		u, err := neturl.Parse(url)
		if err != nil {
			return errPermanent{errs.New(errs.Usage, "give an http(s) URL", "bad URL %q: %v", url, err)}
		}
		if err := f.Rule(u); err != nil {
			return errPermanent{err}
		}
	}
	if path, ok := strings.CutPrefix(url, "file://"); ok { // a mirror on disk, for air-gapped installs
		file, err := safefile.OpenRegular(path) // a FIFO must not hold the install (or the update check) forever
		if err != nil {
			return errPermanent{notFound(url, err.Error())}
		}
		defer file.Close()
		return readCapped(file, url, limit, read)
	}
	// The watchdog covers the wait for headers too: it starts now and
	// every byte that arrives resets it.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idle := f.idle()
	stalled := errors.New("stalled")
	timer := time.AfterFunc(idle, func() { cancel(stalled) })
	defer timer.Stop()

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return errPermanent{errs.New(errs.Usage, "give an http(s) URL", "bad URL %q: %v", url, err)}
	}
	resp, err := f.client().Do(req)
	if e := (*errs.Error)(nil); errors.As(err, &e) { // a redirect the rule refused
		return errPermanent{e}
	}
	if err != nil {
		return f.stallOr(ctx, stalled, url, err)
	}
	defer resp.Body.Close()
	timer.Reset(idle)
	switch {
	case resp.StatusCode == http.StatusOK:
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return fmt.Errorf("%s answered %s", url, resp.Status)
	case resp.StatusCode == http.StatusNotFound:
		return errPermanent{notFound(url, resp.Status)}
	default:
		return errPermanent{errs.New(errs.ManifestInvalid, "check --version and LOAMS_RELEASES_URL; `loams server install` without --version takes the latest release",
			"%s answered %s", url, resp.Status).With("url", url).With("status", resp.StatusCode)}
	}
	if limit >= 0 && resp.ContentLength > limit {
		return errPermanent{tooLarge(url, limit)}
	}
	err = readCapped(&watchdog{r: resp.Body, timer: timer, idle: idle}, url, limit, read)
	if err != nil {
		return f.stallOr(ctx, stalled, url, err)
	}
	return nil
}

// stallOr turns a failure caused by the watchdog into `timeout`.
func (f *Fetcher) stallOr(ctx context.Context, stalled error, url string, err error) error {
	if !errors.Is(context.Cause(ctx), stalled) {
		return err
	}
	return errPermanent{errs.New(errs.Timeout, "check the network (or LOAMS_RELEASES_URL) and run the command again; nothing was installed",
		"%s sent nothing for %s; gave up", url, f.idle()).With("url", url).With("idle_ms", f.idle().Milliseconds())}
}

// notFound is a file the release does not have. The caller names the
// remedy that fits (a manifest missing means nothing is published).
func notFound(url, why string) *errs.Error {
	return errs.New(errs.ManifestInvalid, "check --version and LOAMS_RELEASES_URL; `loams server install` without --version takes the latest release",
		"%s: %s", url, why).With("url", url).With("status", http.StatusNotFound).Wrap(errFileMissing)
}

func tooLarge(url string, limit int64) *errs.Error {
	return errs.New(errs.ChecksumMismatch, "nothing was installed; do not use this mirror (check LOAMS_RELEASES_URL), and report it to the server project if it repeats",
		"%s sent more than the %d bytes the release manifest states; stopped", url, limit).With("url", url).With("size_bytes", limit).Wrap(errTooLarge)
}

// readCapped hands read a body that fails as soon as byte limit+1 arrives.
func readCapped(body io.Reader, url string, limit int64, read func(io.Reader) error) error {
	c := &capped{r: body, left: limit}
	err := read(c)
	if c.over {
		return errPermanent{tooLarge(url, limit)}
	}
	return err
}

// capped reads at most left bytes and fails on the next one; left < 0
// means no cap.
type capped struct {
	r    io.Reader
	left int64
	over bool
}

var errTooLarge = errors.New("more bytes than allowed")

func (c *capped) Read(p []byte) (int, error) {
	if c.left < 0 {
		return c.r.Read(p)
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	if int64(n) > c.left {
		c.over = true
		return int(c.left), errTooLarge
	}
	c.left -= int64(n)
	return n, err
}

// watchdog pushes the stall deadline back whenever bytes arrive.
type watchdog struct {
	r     io.Reader
	timer *time.Timer
	idle  time.Duration
}

func (w *watchdog) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if n > 0 {
		w.timer.Reset(w.idle)
	}
	return n, err
}
