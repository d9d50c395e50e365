package endpoint

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
)

// The spec's timeouts and retry budget.
const (
	ConnectTimeout = 5 * time.Second
	RequestTimeout = 15 * time.Second
	Retries        = 2
	// maxRetryAfter bounds how long one Retry-After may make us wait, so a
	// server asking for an hour does not hang a command.
	maxRetryAfter = 10 * time.Second
	maxRedirects  = 5
	maxBody       = 8 << 20
)

// Options configure a Client; the zero value talks to a loopback server
// without credentials.
type Options struct {
	Key       Key    // sent as Authorization: Bearer, to the key's own origin only
	Namespace string // sent as Loams-Namespace when set
	CACert    string // PEM file trusted beside the system roots
	// Getenv reads SSL_CERT_FILE and the proxy settings (HTTP_PROXY,
	// HTTPS_PROXY, NO_PROXY); nil reads nothing.
	Getenv func(string) string
	// Profile names the profile in the unauthenticated hint.
	Profile string
	// UnreachableHint replaces the generic hint of endpoint_unreachable
	// (a local stack says how to start it).
	UnreachableHint string
	UserAgent       string

	ConnectTimeout time.Duration // default ConnectTimeout
	RequestTimeout time.Duration // default RequestTimeout
	Retries        int           // default Retries; -1 for none
}

// Client is the one HTTP client for every call loams makes to a Loams
// server: readiness probes, GetInstance, WhoAmI and remote calls alike.
type Client struct {
	base   *url.URL
	origin Origin // base's, where the key may go
	opts   Options
	http   *http.Client
	// sleep waits between retries; tests shorten it.
	sleep func(context.Context, time.Duration) error
}

// New checks the URL (insecure_endpoint before any dial) and builds the
// client. TLS is always verified: ca_cert and SSL_CERT_FILE add trust,
// nothing removes it.
func New(rawURL string, o Options) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(rawURL, "/"))
	if err != nil || u.Host == "" {
		return nil, errs.New(errs.Usage, urlHint, "%q is not an endpoint URL", rawURL)
	}
	if err := CheckSecure(u); err != nil {
		return nil, err
	}
	origin, err := OriginOf(u)
	if err != nil {
		return nil, errs.New(errs.Usage, urlHint, "%q is not an endpoint URL: %v", rawURL, err)
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = ConnectTimeout
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = RequestTimeout
	}
	if o.Retries == 0 {
		o.Retries = Retries
	}
	var tr *http.Transport
	if u.Scheme == "https" {
		// Only https needs roots: reading the system pool costs
		// milliseconds the readiness probe of a local stack should not pay.
		pool, err := trustPool(o.CACert, o.Getenv)
		if err != nil {
			return nil, err
		}
		tr = newTransport(o.ConnectTimeout, proxyConfig(o.Getenv))
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	} else {
		tr = loopbackTransport(o.ConnectTimeout, proxyConfig(o.Getenv))
	}
	c := &Client{base: u, origin: origin, opts: o, sleep: sleepCtx}
	c.http = &http.Client{
		Transport: tr,
		Timeout:   o.RequestTimeout,
		// Redirects are followed by Do itself, which decides per hop
		// whether the key may go along.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return c, nil
}

// URL is the endpoint's base URL.
func (c *Client) URL() string { return c.base.String() }

// Close drops idle connections of a TLS client; loopback connections stay
// pooled for the next client.
func (c *Client) Close() {
	if c.base.Scheme == "https" {
		c.http.CloseIdleConnections()
	}
}

// Call is one request. Idempotent reads are retried on connection errors
// and 503; anything that may change state is sent once.
type Call struct {
	Method     string
	Path       string // below the base URL, starting with /
	Body       []byte // JSON; nil for none
	Idempotent bool
}

// Response is a completed request with its body read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// URL is where the answer came from (after redirects); withheld says
	// the client held a key and did not send it there (another origin).
	URL      string
	withheld bool
}

// Do sends the call, following redirects and retrying idempotent reads.
// A 401 is unauthenticated and a 403 forbidden; other statuses are the
// caller's to read. Transport failures are endpoint_unreachable or
// tls_error.
func (c *Client) Do(ctx context.Context, call Call) (*Response, error) {
	retries := c.opts.Retries
	if !call.Idempotent || retries < 0 {
		retries = 0
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.follow(ctx, call)
		if attempt < retries && ctx.Err() == nil {
			var wait time.Duration
			switch {
			case err != nil && retryable(err):
				wait = time.Duration(200<<attempt) * time.Millisecond
			case err == nil && resp.Status == http.StatusServiceUnavailable:
				wait = retryAfter(resp.Header.Get("Retry-After"), time.Duration(500<<attempt)*time.Millisecond)
			}
			if wait > 0 {
				if err := c.sleep(ctx, wait); err != nil {
					return nil, err
				}
				continue
			}
		}
		if err != nil {
			return nil, c.classify(err)
		}
		switch {
		case (resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden) && resp.withheld:
			// The key stayed home and the server wanted one: say where
			// the key belongs, not that the server refused it.
			return resp, c.withheldError(resp.URL)
		case resp.Status == http.StatusUnauthorized:
			return resp, c.unauthenticated()
		case resp.Status == http.StatusForbidden:
			return resp, errs.New(errs.Forbidden, "ask the deployment's operator for access with this key, or log in with another: `loams login --with-api-key"+c.profileFlag()+"`",
				"%s refused the request (403 forbidden)", c.base.Redacted()).With("endpoint", c.URL())
		}
		return resp, nil
	}
}

// follow sends the call and follows up to maxRedirects redirects itself
// (Go's http.Client would forward Authorization to the same host on
// another port, and to subdomains). The key goes to its own origin only
// (scheme, normalised host and port), on every hop: not to the endpoint
// when the endpoint is another origin, never across a redirect to one, nor
// to plain http off loopback.
func (c *Client) follow(ctx context.Context, call Call) (*Response, error) {
	target := new(url.URL)
	*target = *c.base
	target.Path = c.base.Path + call.Path
	method, body := call.Method, call.Body
	for hop := 0; ; hop++ {
		req, err := http.NewRequestWithContext(ctx, method, target.String(), bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		if body == nil {
			req.Body, req.ContentLength = http.NoBody, 0
		} else {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Accept", "application/json")
		if c.opts.UserAgent != "" {
			req.Header.Set("User-Agent", c.opts.UserAgent)
		}
		if c.opts.Namespace != "" {
			req.Header.Set("Loams-Namespace", c.opts.Namespace)
		}
		withheld := false
		if key := c.opts.Key; !key.IsZero() {
			if o, err := OriginOf(target); err == nil && c.keyUsable() && o == key.Origin {
				req.Header.Set("Authorization", "Bearer "+key.Secret.Reveal())
			} else {
				withheld = true
			}
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		loc := resp.Header.Get("Location")
		if !isRedirect(resp.StatusCode) || loc == "" {
			return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data, URL: target.String(), withheld: withheld}, nil
		}
		if hop >= maxRedirects {
			return nil, errs.New(errs.ServerError, "check the endpoint URL; it may point at a login page or a loop",
				"%s redirected more than %d times", c.base.Redacted(), maxRedirects).With("endpoint", c.URL())
		}
		next, err := target.Parse(loc)
		if err != nil {
			return nil, errs.New(errs.ServerError, "check the endpoint URL", "%s redirected to an unreadable location", c.base.Redacted())
		}
		if err := CheckSecure(next); err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTemporaryRedirect && resp.StatusCode != http.StatusPermanentRedirect && method != http.MethodHead {
			method, body = http.MethodGet, nil
		}
		target = next
	}
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// retryAfter reads Retry-After (seconds or an HTTP date), else def, bounded.
func retryAfter(v string, def time.Duration) time.Duration {
	d := def
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = time.Until(t)
	}
	return min(max(d, 50*time.Millisecond), maxRetryAfter)
}

// retryable: the request never got an answer because the connection failed
// (refused, reset, closed early). TLS failures and timeouts of a request
// that was sent are not retried.
func retryable(err error) bool {
	var tlsErr *tls.CertificateVerificationError
	if errors.As(err, &tlsErr) {
		return false
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns.IsTemporary
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || isReset(err)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
