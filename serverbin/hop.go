package serverbin

import (
	"errors"
	"net/http"
	"net/url"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/errs"
)

// HopRule is asked about every URL a Fetcher fetches, the first and each
// redirect, before the connection is opened: a redirect is a new URL the
// server chose, and it gets the same scrutiny as the one the user gave.
type HopRule func(u *url.URL) error

// RequireHTTPS is the rule for what nothing else authenticates (an
// unsigned release, a --from URL): HTTPS, or this machine. fix says which
// setting to change.
func RequireHTTPS(what, fix string) HopRule {
	return func(u *url.URL) error {
		if u.Scheme == "https" || u.Scheme == "http" && endpoint.IsLoopback(u.Hostname()) || u.Scheme == "file" {
			return nil
		}
		return errs.New(errs.InsecureEndpoint, fix, "%s must come over HTTPS, not %s; nothing was fetched from it", what, u.Redacted()).
			With("url", u.Redacted())
	}
}

// maxRedirects is net/http's own bound, kept.
const maxRedirects = 10

// checkRedirect applies the rule to a redirect before it is followed.
func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return errors.New("stopped after 10 redirects")
	}
	if f.Rule != nil {
		return f.Rule(req.URL)
	}
	return nil
}

// proxy is the environment's proxy, except that this machine is never
// reached through one (endpoints.md): net/http's own exemption misses
// `localhost.` and `LOCALHOST`. It is asked per request, redirects included.
func proxy(r *http.Request) (*url.URL, error) {
	if endpoint.IsLoopback(r.URL.Hostname()) {
		return nil, nil
	}
	return http.ProxyFromEnvironment(r)
}
