package endpoint

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"loams.dev/cli/secret"
)

func TestOriginIsNormalised(t *testing.T) {
	for in, want := range map[string]Origin{
		"http://127.0.0.1:8080":             "http://127.0.0.1:8080",
		"http://127.0.0.1:08080/":           "http://127.0.0.1:8080",
		"HTTP://LOCALHOST.:9":               "http://localhost:9",
		"http://localhost":                  "http://localhost:80",
		"https://Loams.Example.COM./x":      "https://loams.example.com:443",
		"https://loams.example.com:443":     "https://loams.example.com:443",
		"http://[::1]:8080":                 "http://[::1]:8080",
		"http://[0:0:0:0:0:0:0:1]:8080":     "http://[::1]:8080",
		"https://bücher.example":            "https://xn--bcher-kva.example:443",
		"https://BÜCHER.example.":           "https://xn--bcher-kva.example:443",
		"http://ｌｏｃａｌｈｏｓｔ:1":                "http://localhost:1", // full-width, as IDNA maps it
		"http://１２７．０．０．１:1":                "http://127.0.0.1:1",
		"http://[::ffff:127.0.0.1]:1":       "http://[::ffff:127.0.0.1]:1",
		"https://loams.example.com:8443/a/": "https://loams.example.com:8443",
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got, err := OriginOf(u); err != nil || got != want {
			t.Errorf("OriginOf(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"http://exa mple.com", "http://:80", "ftp://loams.example.com", "http://127.0.0.1:99999"} {
		if o := ParseOrigin(in); o != "" {
			t.Errorf("ParseOrigin(%q) = %q; want none", in, o)
		}
	}
}

// The second HIGH finding, first half: loopback is decided on the
// normalised host, so every spelling of loopback may use http:// and none
// of the look-alikes may.
func TestLoopbackDecidedAfterNormalisation(t *testing.T) {
	for _, h := range []string{"localhost", "localhost.", "LOCALHOST", "LocalHost.", "127.0.0.1", "127.0.0.2", "127.255.255.254",
		"::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "ｌｏｃａｌｈｏｓｔ"} {
		if !IsLoopback(h) {
			t.Errorf("IsLoopback(%q) = false", h)
		}
	}
	for _, h := range []string{"localhost.example.com", "127.0.0.1.example.com", "localhost..", "128.0.0.1", "::2", "0.0.0.0", "", "example.com"} {
		if IsLoopback(h) {
			t.Errorf("IsLoopback(%q) = true", h)
		}
	}
}

// proxyRecorder is an HTTP proxy on 127.0.0.1 that records every request
// that reaches it (method, target, whether it carried Authorization) and
// answers 502.
type proxyRecorder struct {
	mu   sync.Mutex
	seen []string
	url  string
}

func startProxy(t *testing.T) *proxyRecorder {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxyRecorder{url: "http://" + l.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			req, err := http.ReadRequest(bufio.NewReader(conn))
			if err == nil {
				p.mu.Lock()
				p.seen = append(p.seen, req.Method+" "+req.Host+" auth="+req.Header.Get("Authorization"))
				p.mu.Unlock()
			}
			conn.Write([]byte("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
			conn.Close()
		}
	}()
	return p
}

func (p *proxyRecorder) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// The second HIGH finding: with HTTP_PROXY set, a request to
// `localhost.` went through the proxy, key and all, in clear. Loopback
// never goes through a proxy, however it is written and whatever
// HTTP_PROXY, HTTPS_PROXY and NO_PROXY say.
func TestLoopbackNeverThroughProxy(t *testing.T) {
	proxy := startProxy(t)
	vars := []string{"HTTP_PROXY", proxy.url, "HTTPS_PROXY", proxy.url, "http_proxy", proxy.url, "NO_PROXY", "", "no_proxy", ""}
	for i := 0; i < len(vars); i += 2 {
		t.Setenv(vars[i], vars[i+1]) // what net/http's own rule would read
	}
	v4 := newRecorder(t, "127.0.0.1:0", nil)
	_, port, _ := net.SplitHostPort(v4.srv.Listener.Addr().String())
	rows := []struct{ host, listen string }{
		{"localhost.", ""}, {"LOCALHOST", ""}, {"LocalHost.", ""}, {"127.0.0.1", ""}, {"127.0.0.1.", ""},
		{"127.0.0.2", "127.0.0.2:0"}, {"[::1]", "[::1]:0"}, {"[0:0:0:0:0:0:0:1]", "[::1]:0"},
	}
	for _, row := range rows {
		t.Run(row.host, func(t *testing.T) {
			rec, p := v4, port
			if row.listen != "" {
				rec = newRecorder(t, row.listen, nil)
				_, p, _ = net.SplitHostPort(rec.srv.Listener.Addr().String())
			}
			before, proxied := len(rec.got()), len(proxy.requests())
			base := "http://" + row.host + ":" + p
			c, err := New(base, Options{Key: BindKey(secret.New(testKey), base), Getenv: env(vars...)})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.WhoAmI(context.Background()); err != nil {
				t.Fatalf("%s: %v (proxy saw %q)", base, err, proxy.requests())
			}
			if got := proxy.requests(); len(got) != proxied {
				t.Fatalf("%s went through the proxy: %q", base, got[proxied:])
			}
			if got := rec.got(); len(got) != before+1 || got[before] != "Bearer "+testKey {
				t.Fatalf("the server itself got %q", got[before:])
			}
		})
	}
	// The control: the proxy is in effect for anything else, so the rows
	// above prove the exemption, not a proxy that was never configured.
	c, _ := New("https://loams.example.test", Options{Getenv: env(vars...), Retries: -1})
	c.GetInstance(context.Background())
	if got := proxy.requests(); len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "CONNECT loams.example.test:443") {
		t.Fatalf("a remote endpoint did not go through the proxy: %q", got)
	}
}

// got is what the recorder saw so far, read under its lock.
func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.auth...)
}
