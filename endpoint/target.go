// Package endpoint is how loams reaches a Loams server, local or remote:
// resolving which endpoint a command talks to (--endpoint, LOAMS_ENDPOINT,
// the profile, the default stack) and the one HTTP client every call to a
// server goes through (TLS, credentials, retries, error codes).
package endpoint

import (
	"net/url"
	"regexp"
	"strings"
	"sync"

	"loams.dev/cli/internal/errs"
)

// Target is what --endpoint, LOAMS_ENDPOINT or a profile's endpoint names:
// a local stack (local:STACK) or the URL of a server's native API.
type Target struct {
	Stack string   // set for local:STACK
	URL   *url.URL // set otherwise; no trailing slash, no query
}

var stackName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9-]{0,30}$`) })

const urlHint = "use https://HOST[:PORT] for a deployment, http://127.0.0.1:PORT for a local server, or local:STACK"

// ParseTarget checks an endpoint the user wrote. Everything is decided from
// the text: an http:// URL off loopback is insecure_endpoint here, before
// any client exists, so no byte can reach it.
func ParseTarget(s string) (Target, error) {
	s = strings.TrimSpace(s)
	if name, ok := strings.CutPrefix(s, "local:"); ok {
		if !stackName().MatchString(name) {
			return Target{}, errs.New(errs.Usage, "stack names match "+stackName().String()+"; `loams stack list` shows them",
				"invalid stack name %q in endpoint %q", name, s).With("endpoint", s)
		}
		return Target{Stack: name}, nil
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return Target{}, errs.New(errs.Usage, urlHint, "%q is not an endpoint URL", s).With("endpoint", s)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return Target{}, errs.New(errs.Usage, urlHint, "endpoint %q: the scheme must be https (or http on loopback)", s).With("endpoint", s)
	case u.User != nil:
		// Never echo the URL here: its user part may be a password.
		return Target{}, errs.New(errs.Usage, "remove the user:password part; store the key with `loams login --with-api-key`",
			"the endpoint URL carries credentials; loams keeps keys in the secret store, not in URLs")
	case u.RawQuery != "" || u.Fragment != "":
		return Target{}, errs.New(errs.Usage, urlHint, "endpoint %q: a query or fragment has no meaning here", s).With("endpoint", s)
	}
	if err := CheckSecure(u); err != nil {
		return Target{}, err
	}
	if _, err := OriginOf(u); err != nil {
		return Target{}, errs.New(errs.Usage, urlHint, "endpoint %q: the host or port is not valid (%v)", s, err).With("endpoint", s)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return Target{URL: u}, nil
}

// String gives the target back in the form the user writes it.
func (t Target) String() string {
	if t.URL == nil {
		return "local:" + t.Stack
	}
	return t.URL.String()
}

// CheckSecure refuses plain http:// to anything but loopback. It looks at
// the URL only: it runs before dialling, so nothing (no key, no request)
// is sent to an insecure endpoint.
func CheckSecure(u *url.URL) error {
	if u.Scheme == "https" || (u.Scheme == "http" && IsLoopback(u.Hostname())) {
		return nil
	}
	return errs.New(errs.InsecureEndpoint,
		"use https://"+u.Host+u.Path+" (plain http is allowed only for 127.0.0.0/8, ::1 and localhost)",
		"refusing to send a request to %s://%s: credentials would cross the network unencrypted", u.Scheme, u.Host).
		With("endpoint", u.Scheme+"://"+u.Host+u.Path)
}
