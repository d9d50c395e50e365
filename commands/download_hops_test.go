package commands

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// counted is an HTTP server that counts the requests it gets.
type counted struct {
	URL string
	n   atomic.Int32
}

// offLoopback serves on this machine's first non-loopback IPv4 address,
// so http:// to it is off loopback by the rule and yet a request that
// reaches it is counted. A machine with no such address skips.
func offLoopback(t *testing.T) *counted {
	t.Helper()
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok || ipn.IP.IsLoopback() || ipn.IP.To4() == nil {
			continue
		}
		l, err := net.Listen("tcp", net.JoinHostPort(ipn.IP.String(), "0"))
		if err != nil {
			continue
		}
		c := &counted{}
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c.n.Add(1)
			http.NotFound(w, r)
		}))
		srv.Listener.Close()
		srv.Listener = l
		srv.Start()
		t.Cleanup(srv.Close)
		c.URL = srv.URL
		return c
	}
	t.Skip("no non-loopback IPv4 address to serve an off-loopback host on")
	return nil
}

// redirector is a loopback server that sends every request to target+path.
func redirector(t *testing.T, target string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// What no signature protects (no key compiled in, --from URL) comes over
// HTTPS or from this machine, on every hop, and the rule is applied before
// the connection: the off-loopback host never sees a request, whether it
// was named directly or reached by a loopback server's redirect.
func TestUnsignedDownloadsHopRule(t *testing.T) {
	t.Parallel()
	off := offLoopback(t)
	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"server install, plain http off loopback", []string{"LOAMS_RELEASES_URL=" + off.URL + "/"}, []string{"server", "install", "--allow-unsigned", "--allow-download"}},
		{"server install without --allow-unsigned", []string{"LOAMS_RELEASES_URL=" + off.URL + "/"}, []string{"server", "install", "--allow-download"}},
		{"server install, redirected off loopback", []string{"LOAMS_RELEASES_URL=" + redirector(t, off.URL)}, []string{"server", "install", "--allow-unsigned", "--allow-download"}},
		{"server install --from, plain http off loopback", nil, []string{"server", "install", "--from", off.URL + "/loams", "--allow-download"}},
		{"server install --from, redirected off loopback", nil, []string{"server", "install", "--from", redirector(t, off.URL) + "loams", "--allow-download"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := off.n.Load()
			env := bareEnv(t, "/usr/bin:/bin", tc.env...)
			_, errOut, code := loams(t, env, append(tc.args, "-o", "json")...)
			if code != 3 || !strings.Contains(errOut, "insecure_endpoint") {
				t.Errorf("exit %d, want insecure_endpoint (3): %s", code, errOut)
			}
			if n := off.n.Load() - before; n != 0 {
				t.Errorf("the off-loopback host got %d request(s)", n)
			}
		})
	}
}

// `loams update --allow-unsigned` from a loopback channel that redirects
// to plain http off loopback: refused before the connection.
func TestUnsignedUpdateRedirectOffLoopback(t *testing.T) {
	t.Parallel()
	off := offLoopback(t)
	bin := installed(t, loamsVersion(t, "0.1.0"))
	env := updateEnv(t, "LOAMS_CLI_RELEASES_URL="+redirector(t, off.URL), "LOAMS_NO_UPDATE_NOTIFIER=1")
	_, errOut, code := run(t, env, bin, "update", "--allow-unsigned", "-o", "json")
	if code != 3 || !strings.Contains(errOut, "insecure_endpoint") || off.n.Load() != 0 {
		t.Errorf("exit %d, %d request(s) off loopback; want insecure_endpoint (3) and none: %s", code, off.n.Load(), errOut)
	}
}

// Loopback is never reached through a proxy (endpoints.md), redirects
// included: `localhost.` escapes net/http's own exemption.
func TestReleaseRedirectToLoopbackSkipsTheProxy(t *testing.T) {
	t.Parallel()
	var proxied atomic.Int32
	prx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		http.Error(w, "proxy", http.StatusBadGateway)
	}))
	defer prx.Close()
	target := httptest.NewServer(http.NotFoundHandler())
	defer target.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(target.URL, "http://"))
	env := bareEnv(t, "/usr/bin:/bin", "LOAMS_RELEASES_URL="+redirector(t, "http://localhost.:"+port), "HTTP_PROXY="+prx.URL, "http_proxy="+prx.URL,
		"NO_PROXY=", "no_proxy=")
	_, errOut, _ := loams(t, env, "server", "install", "--allow-unsigned", "--allow-download", "-o", "json")
	if n := proxied.Load(); n != 0 {
		t.Errorf("the proxy got %d request(s) for loopback: %s", n, errOut)
	}
}
