package endpoint

import (
	"errors"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/http/httpproxy"
	"golang.org/x/net/idna"
)

// Origin is where a key may go: scheme://host:port with the host
// normalised (NormalizeHost) and the port explicit, e.g.
// "https://loams.example.com:443" or "http://[::1]:8080". Two URLs that
// reach the same server by the same name have the same Origin; localhost,
// 127.0.0.1 and ::1 are three origins.
type Origin string

// NormalizeHost is the host as loams compares it: without a trailing dot,
// IDNA to ASCII (which also lowers case and maps full-width forms), and an
// IP address in its canonical text (0:0:0:0:0:0:0:1 is ::1). A host that
// is neither an IP nor a valid name is an error.
func NormalizeHost(host string) (string, error) {
	h := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), ".")
	if a, err := netip.ParseAddr(h); err == nil {
		return a.String(), nil
	}
	if isASCII(h) {
		h = strings.ToLower(h)
	} else {
		ascii, err := idna.Lookup.ToASCII(h)
		if err != nil {
			return "", err
		}
		h = strings.TrimSuffix(ascii, ".")
		// Full-width digits and dots map to an IP address.
		if a, err := netip.ParseAddr(h); err == nil {
			return a.String(), nil
		}
	}
	if h == "" || strings.ContainsAny(h, "/\\@:%[] ") {
		return "", errBadHost
	}
	return h, nil
}

var errBadHost = errors.New("not a host name")

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// OriginOf is the origin of an absolute http(s) URL.
func OriginOf(u *url.URL) (Origin, error) {
	host, err := NormalizeHost(u.Hostname())
	if err != nil {
		return "", err
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	switch {
	case port != "":
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil {
			return "", err
		}
		port = strconv.FormatUint(n, 10) // 08080 is 8080
	case scheme == "https":
		port = "443"
	case scheme == "http":
		port = "80"
	default:
		return "", errBadHost
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return Origin(scheme + "://" + host + ":" + port), nil
}

// ParseOrigin is OriginOf for a URL given as text ("" when it has none).
func ParseOrigin(rawURL string) Origin {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	o, _ := OriginOf(u)
	return o
}

// IsLoopback reports whether host, normalised, is localhost, 127.0.0.0/8
// or ::1. It is decided from the text (no DNS lookup): a name that merely
// resolves to 127.0.0.1 is not trusted to stay that way.
func IsLoopback(host string) bool {
	h, err := NormalizeHost(host)
	if err != nil {
		return false
	}
	if h == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Unmap().IsLoopback()
}

// proxyFor is the Transport's Proxy: the proxy settings Go would use,
// except that loopback never goes through a proxy, whatever they say. Go's
// own rule exempts only "localhost" and loopback IPs as written, so
// `localhost.` or `LOCALHOST` would reach the proxy, key and all, in clear.
func proxyFor(cfg httpproxy.Config) func(*http.Request) (*url.URL, error) {
	proxy := cfg.ProxyFunc()
	return func(r *http.Request) (*url.URL, error) {
		if IsLoopback(r.URL.Hostname()) {
			return nil, nil
		}
		return proxy(r.URL)
	}
}

// proxyConfig reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY (and their
// lower-case forms) as net/http does, through getenv so that a caller's
// environment, not the process's, decides.
func proxyConfig(getenv func(string) string) httpproxy.Config {
	either := func(a, b string) string {
		if v := getenv(a); v != "" {
			return v
		}
		return getenv(b)
	}
	return httpproxy.Config{
		HTTPProxy:  either("HTTP_PROXY", "http_proxy"),
		HTTPSProxy: either("HTTPS_PROXY", "https_proxy"),
		NoProxy:    either("NO_PROXY", "no_proxy"),
		CGI:        getenv("REQUEST_METHOD") != "",
	}
}
