package endpoint

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strings"
	"syscall"

	"loams.dev/cli/internal/errs"
)

// CACertHint names the settings that add trust; tls_error always says it.
const CACertHint = "if the deployment uses a private CA, trust it with `loams configure set ca_cert /path/to/ca.pem` " +
	"(or SSL_CERT_FILE); loams always verifies TLS and has no switch to turn that off"

// classify turns a transport failure into the spec's codes. Messages name
// the endpoint and the cause, never a header or a key.
func (c *Client) classify(err error) error {
	if e := (*errs.Error)(nil); errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	where := c.base.Redacted()
	var (
		verify  *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
		record  tls.RecordHeaderError
		alert   tls.AlertError
		dns     *net.DNSError
		netErr  net.Error
	)
	tlsErr := func(format string, args ...any) error {
		return errs.New(errs.TLSError, CACertHint, format, args...).With("endpoint", c.URL()).Wrap(err)
	}
	switch {
	case errors.As(err, &host):
		return tlsErr("the TLS certificate of %s is not valid for %s: %v", where, c.base.Hostname(), host.Error())
	case errors.As(err, &unknown):
		return tlsErr("the TLS certificate of %s is signed by an authority this machine does not trust", where)
	case errors.As(err, &invalid):
		return tlsErr("the TLS certificate of %s is not valid: %v", where, invalid.Error())
	case errors.As(err, &verify):
		return tlsErr("the TLS certificate of %s could not be verified: %v", where, verify.Err)
	case errors.As(err, &record), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return errs.New(errs.TLSError, "use http:// only for a server on loopback, https:// for one that speaks TLS; "+CACertHint,
			"%s does not answer TLS (is it a plain http server?)", where).With("endpoint", c.URL()).Wrap(err)
	case errors.As(err, &alert):
		return tlsErr("the TLS handshake with %s failed: %v", where, alert.Error())
	case errors.As(err, &dns):
		return c.unreachable(err, "cannot resolve the host of %s: %s", where, dnsReason(dns))
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return c.unreachable(err, "%s did not answer in time (connect %s, request %s)", where, c.opts.ConnectTimeout, c.opts.RequestTimeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return c.unreachable(err, "nothing is listening at %s (connection refused)", where)
	}
	return c.unreachable(err, "cannot reach %s: %v", where, oneLine(err))
}

func (c *Client) unreachable(err error, format string, args ...any) error {
	hint := c.opts.UnreachableHint
	if hint == "" {
		hint = "check the endpoint (`loams configure get endpoint`), your network or VPN, then `loams status`"
	}
	return errs.New(errs.EndpointUnreachable, hint, format, args...).With("endpoint", c.URL()).Wrap(err)
}

func (c *Client) unauthenticated() error {
	if c.opts.Key.IsZero() {
		return errs.New(errs.Unauthenticated, "log in: `loams login --with-api-key"+c.profileFlag()+"` (the key is read from stdin)",
			"%s requires an API key, and none is stored (401 unauthenticated)", c.base.Redacted()).With("endpoint", c.URL()).With("profile", c.opts.Profile)
	}
	return errs.New(errs.Unauthenticated, "log in again: `loams login --with-api-key"+c.profileFlag()+"` (the key is read from stdin)",
		"%s rejected the API key (401 unauthenticated)", c.base.Redacted()).With("endpoint", c.URL()).With("profile", c.opts.Profile)
}

// KeyError is nil when the client holds a key it may send to its
// endpoint; else the unauthenticated error of a command that needs one:
// no key stored, or a key that belongs to another origin.
func (c *Client) KeyError() error {
	k := c.opts.Key
	if k.IsZero() {
		return errs.New(errs.Unauthenticated, "log in: `loams login --with-api-key"+c.profileFlag()+"` (the key is read from stdin)",
			"profile %q has no stored API key for %s", c.opts.Profile, c.base.Redacted()).With("profile", c.opts.Profile).With("endpoint", c.URL())
	}
	if !c.keyUsable() {
		return k.elsewhere(c.URL(), c.opts.Profile)
	}
	return nil
}

// withheldError is the 401/403 of a request that went without the key
// because it was for another origin: the endpoint itself, or a host it
// redirected to (named by its origin only; the hop's path and query are
// the server's business).
func (c *Client) withheldError(answered string) error {
	hop := ParseOrigin(answered)
	if hop == "" || hop == c.origin || !c.keyUsable() {
		return c.opts.Key.elsewhere(c.URL(), c.opts.Profile)
	}
	profile := c.opts.Profile
	if profile == "" {
		profile = "NAME"
	}
	cmd := "loams login --with-api-key --profile " + profile + " --endpoint " + string(hop)
	return errs.New(errs.Unauthenticated, "check the endpoint URL; if the deployment moved there, log in to it: `"+cmd+"` (the key is read from stdin)",
		"%s redirected to %s, and the API key of profile %q belongs to %s: loams does not send it across", c.base.Redacted(), hop, c.opts.Profile, c.opts.Key.Origin).
		With("endpoint", c.URL()).With("redirected_to", string(hop)).With("key_origin", string(c.opts.Key.Origin)).ForAgent(errs.AskUser(cmd))
}

// keyUsable: the endpoint itself is the key's origin. Otherwise the key is
// not used at all, not even on a redirect that leads to its origin: an
// endpoint must not be able to make loams send an authenticated request
// on its behalf.
func (c *Client) keyUsable() bool {
	return c.origin != "" && c.origin == c.opts.Key.Origin
}

// KeyOrigin is the origin the client's key belongs to ("" for none).
func (c *Client) KeyOrigin() Origin { return c.opts.Key.Origin }

func (c *Client) profileFlag() string {
	name := c.opts.Profile
	if name == "" {
		name = "NAME"
	}
	return " --profile " + name
}

func dnsReason(d *net.DNSError) string {
	if d.IsNotFound {
		return "no such host " + d.Name
	}
	return d.Err
}

func isReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed)
}

func oneLine(err error) string {
	s := err.Error()
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
