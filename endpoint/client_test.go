package endpoint

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/testkit/standin"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/secret"
)

// TestMain fails the run when a process a test started outlives it.
func TestMain(m *testing.M) { os.Exit(testbin.Main(m)) }

const testKey = "loams_k3f9a0b1c2d3_AbCdEfGhIjKlMnOpQrStUvWxYz012345"

// tlsStandIn starts the stand-in behind TLS with a certificate for
// 127.0.0.1 from a CA made for the test, requiring testKey.
func tlsStandIn(t *testing.T) (*standin.Server, *standin.CA) {
	t.Helper()
	return standin.StartTLS(t, testKey)
}

func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func wantCode(t *testing.T, err error, code errs.Code) *errs.Error {
	t.Helper()
	if !errs.Is(err, code) {
		t.Fatalf("err = %v; want %s", err, code)
	}
	e := errs.As(err)
	if strings.Contains(e.Message+e.Hint, testKey) || strings.Contains(e.Message+e.Hint, testKey[19:]) {
		t.Fatalf("the error shows the key: %s / %s", e.Message, e.Hint)
	}
	return e
}

func TestHTTPSTrustsCACertAndSSLCertFile(t *testing.T) {
	srv, ca := tlsStandIn(t)
	for name, o := range map[string]Options{
		"ca_cert":       {CACert: ca.PEMPath},
		"SSL_CERT_FILE": {Getenv: env("SSL_CERT_FILE", ca.PEMPath)},
	} {
		t.Run(name, func(t *testing.T) {
			o.Key = BindKey(secret.New(testKey), srv.URL)
			c, err := New(srv.URL, o)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			inst, latency, err := c.GetInstance(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if inst.ServerVersion != "0.0.1" || inst.InstanceID == "" || len(inst.Services) == 0 || latency <= 0 {
				t.Fatalf("GetInstance = %+v in %s", inst, latency)
			}
			who, err := c.WhoAmI(context.Background())
			if err != nil || who["keyId"] != "k3f9a0b1c2d3" {
				t.Fatalf("WhoAmI = %v, %v", who, err)
			}
		})
	}
}

func TestUntrustedCertificateIsTLSError(t *testing.T) {
	srv, _ := tlsStandIn(t)
	other := standin.NewCA(t, t.TempDir()) // trusting some other CA does not help
	for name, o := range map[string]Options{"system roots": {}, "another CA": {CACert: other.PEMPath}} {
		t.Run(name, func(t *testing.T) {
			o.Key = BindKey(secret.New(testKey), srv.URL)
			c, err := New(srv.URL, o)
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = c.GetInstance(context.Background())
			e := wantCode(t, err, errs.TLSError)
			if !strings.Contains(e.Hint, "ca_cert") || e.ExitCode() != 7 {
				t.Fatalf("hint %q exit %d: the hint must name ca_cert", e.Hint, e.ExitCode())
			}
		})
	}
}

func TestCertificateForAnotherHostIsTLSError(t *testing.T) {
	dir := t.TempDir()
	ca := standin.NewCA(t, dir)
	cert, key := ca.Issue(t, dir, []string{"127.0.0.2"}, "loams.example.com")
	srv := standin.Start(t, standin.Options{Cert: cert, KeyFile: key})
	c, err := New(srv.URL, Options{CACert: ca.PEMPath})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.GetInstance(context.Background())
	e := wantCode(t, err, errs.TLSError)
	if !strings.Contains(e.Message, "not valid for 127.0.0.1") {
		t.Fatalf("message %q should say the certificate is for another host", e.Message)
	}
}

func TestHTTPSToPlainServerIsTLSError(t *testing.T) {
	ca := standin.NewCA(t, t.TempDir())
	// https to a plain http server: the handshake fails on the first record.
	plain := standin.Start(t, standin.Options{})
	c, err := New(strings.Replace(plain.URL, "http://", "https://", 1), Options{CACert: ca.PEMPath})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.GetInstance(context.Background())
	wantCode(t, err, errs.TLSError)
}

// A URL-level check: the client is never built, so nothing can be dialled.
func TestInsecureEndpointRefusedBeforeDialling(t *testing.T) {
	for _, u := range []string{"http://203.0.113.7:8080", "http://loams.example.com", "HTTP://10.0.0.1", "http://127.0.0.1.example.com"} {
		c, err := New(u, Options{Key: BindKey(secret.New(testKey), u)})
		if c != nil {
			t.Fatalf("%s: a client was built", u)
		}
		e := wantCode(t, err, errs.InsecureEndpoint)
		if e.ExitCode() != 3 || !strings.Contains(e.Hint, "https://") {
			t.Fatalf("%s: exit %d hint %q", u, e.ExitCode(), e.Hint)
		}
		if _, err := ParseTarget(u); !errs.Is(err, errs.InsecureEndpoint) {
			t.Fatalf("ParseTarget(%s) = %v", u, err)
		}
	}
	for _, u := range []string{"http://127.0.0.1:8080", "http://127.3.4.5", "http://localhost:9", "http://[::1]:8080", "https://loams.example.com"} {
		if _, err := New(u, Options{Key: BindKey(secret.New(testKey), u)}); err != nil {
			t.Fatalf("%s refused: %v", u, err)
		}
	}
}

func TestWrongOrMissingKeyIsUnauthenticated(t *testing.T) {
	srv, ca := tlsStandIn(t)
	for name, key := range map[string]string{"wrong key": "loams_aaaaaaaaaaaa_" + strings.Repeat("x", 32), "no key": ""} {
		t.Run(name, func(t *testing.T) {
			c, err := New(srv.URL, Options{Key: BindKey(secret.New(key), srv.URL), CACert: ca.PEMPath, Profile: "staging"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.WhoAmI(context.Background())
			e := wantCode(t, err, errs.Unauthenticated)
			if !strings.HasSuffix(e.Hint, "`loams login --with-api-key --profile staging` (the key is read from stdin)") || e.ExitCode() != 8 {
				t.Fatalf("hint %q exit %d", e.Hint, e.ExitCode())
			}
			// GetInstance needs no key, as on the real server.
			if _, _, err := c.GetInstance(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestUnreachableEndpoint(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	c, err := New("http://"+addr, Options{UnreachableHint: "start it"})
	if err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	c.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	_, _, err = c.GetInstance(context.Background())
	e := wantCode(t, err, errs.EndpointUnreachable)
	if e.Hint != "start it" || !strings.Contains(e.Message, "connection refused") {
		t.Fatalf("%q / %q", e.Message, e.Hint)
	}
	if len(waits) != Retries {
		t.Fatalf("retried %d times; want %d", len(waits), Retries)
	}

	c, _ = New("https://no-such-host.invalid", Options{})
	c.sleep = func(context.Context, time.Duration) error { return nil }
	_, _, err = c.GetInstance(context.Background())
	if e := wantCode(t, err, errs.EndpointUnreachable); !strings.Contains(e.Message, "resolve") {
		t.Fatalf("DNS failure message %q", e.Message)
	}
}

func TestRequestTimeout(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hang)
	c, _ := New(srv.URL, Options{RequestTimeout: 150 * time.Millisecond, Retries: -1})
	_, _, err := c.GetInstance(context.Background())
	if e := wantCode(t, err, errs.EndpointUnreachable); !strings.Contains(e.Message, "did not answer in time") {
		t.Fatalf("message %q", e.Message)
	}
	d, _ := New(srv.URL, Options{})
	if d.http.Timeout != 15*time.Second || d.opts.ConnectTimeout != 5*time.Second || d.http.Transport.(*http.Transport).TLSHandshakeTimeout != 5*time.Second {
		t.Fatalf("default timeouts: request %s connect %s", d.http.Timeout, d.opts.ConnectTimeout)
	}
}

func TestIdempotentReadsRetry503HonouringRetryAfter(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(`{"serverVersion":"0.1.0"}`))
	}))
	defer srv.Close()
	c, _ := New(srv.URL, Options{})
	var waits []time.Duration
	c.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	inst, _, err := c.GetInstance(context.Background())
	if err != nil || inst.ServerVersion != "0.1.0" {
		t.Fatalf("%+v %v", inst, err)
	}
	if len(waits) != 2 || waits[0] != 3*time.Second || waits[1] != 3*time.Second {
		t.Fatalf("waits %v; want two of Retry-After's 3s", waits)
	}

	// A write is sent once, whatever the answer.
	calls.Store(0)
	resp, err := c.Do(context.Background(), Call{Method: http.MethodPost, Path: "/v1/namespaces", Body: []byte(`{}`)})
	if err != nil || resp.Status != 503 || calls.Load() != 1 {
		t.Fatalf("write: status %v err %v calls %d", resp, err, calls.Load())
	}
	// Two retries at most: a server that stays 503 is an error after three tries.
	calls.Store(-100)
	_, _, err = c.GetInstance(context.Background())
	if !errs.Is(err, errs.ServerError) || calls.Load() != -97 {
		t.Fatalf("err %v after %d calls", err, calls.Load()+100)
	}
}

// recorder is a loopback listener on addr that records whether each
// request carried Authorization.
type recorder struct {
	mu    sync.Mutex
	auth  []string
	ns    []string
	srv   *httptest.Server
	reply http.HandlerFunc
}

func newRecorder(t *testing.T, addr string, reply http.HandlerFunc) *recorder {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	r := &recorder{reply: reply}
	r.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.auth = append(r.auth, req.Header.Get("Authorization"))
		r.ns = append(r.ns, req.Header.Get("Loams-Namespace"))
		r.mu.Unlock()
		if r.reply != nil {
			r.reply(w, req)
			return
		}
		w.Write([]byte(`{"principal":"x"}`))
	}))
	r.srv.Listener.Close()
	r.srv.Listener = l
	r.srv.Start()
	t.Cleanup(r.srv.Close)
	return r
}

func redirectTo(u string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, u+r.URL.Path, http.StatusTemporaryRedirect)
	}
}

func TestRedirectToAnotherHostDropsTheKey(t *testing.T) {
	for _, host := range []string{"127.0.0.2", "localhost"} {
		t.Run(host, func(t *testing.T) {
			other := newRecorder(t, host+":0", nil)
			_, port, _ := net.SplitHostPort(other.srv.Listener.Addr().String())
			first := newRecorder(t, "127.0.0.1:0", redirectTo("http://"+host+":"+port))
			c, err := New(first.srv.URL, Options{Key: BindKey(secret.New(testKey), first.srv.URL), Namespace: "app"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.WhoAmI(context.Background()); err != nil {
				t.Fatal(err)
			}
			if len(first.auth) != 1 || first.auth[0] != "Bearer "+testKey {
				t.Fatalf("the endpoint itself got %q", first.auth)
			}
			if len(other.auth) != 1 || other.auth[0] != "" {
				t.Fatalf("the other host got Authorization %q", other.auth)
			}
			if other.ns[0] != "app" || first.ns[0] != "app" {
				t.Fatalf("Loams-Namespace %q %q", first.ns, other.ns)
			}
		})
	}
	t.Run("same origin keeps it", func(t *testing.T) {
		var base string
		self := newRecorder(t, "127.0.0.1:0", nil)
		base = self.srv.URL
		self.reply = func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/old" {
				http.Redirect(w, r, base+"/new", http.StatusFound)
				return
			}
			w.Write([]byte(`{}`))
		}
		c, _ := New(base, Options{Key: BindKey(secret.New(testKey), base)})
		if _, err := c.Do(context.Background(), Call{Method: http.MethodGet, Path: "/old", Idempotent: true}); err != nil {
			t.Fatal(err)
		}
		if len(self.auth) != 2 || self.auth[1] != "Bearer "+testKey {
			t.Fatalf("same-origin hop lost the key: %q", self.auth)
		}
	})
	t.Run("to plain http off loopback", func(t *testing.T) {
		first := newRecorder(t, "127.0.0.1:0", redirectTo("http://203.0.113.9"))
		c, _ := New(first.srv.URL, Options{Key: BindKey(secret.New(testKey), first.srv.URL)})
		_, err := c.WhoAmI(context.Background())
		wantCode(t, err, errs.InsecureEndpoint)
	})
}

func TestNotServedAndInstanceForms(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case GetInstancePath:
			w.Write([]byte(`{"instance_id":"i1","server_version":"0.2.0","api_versions":["v1"],"services":[{"package":"p","available":true}],"sign_in_methods":[]}`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	c, _ := New(srv.URL, Options{})
	inst, _, err := c.GetInstance(context.Background())
	if err != nil || inst.InstanceID != "i1" || inst.ServerVersion != "0.2.0" || inst.APIVersions[0] != "v1" || !inst.Services[0].Available {
		t.Fatalf("snake_case form: %+v %v", inst, err)
	}
	if _, err := c.WhoAmI(context.Background()); err != ErrNotServed {
		t.Fatalf("WhoAmI on a server without it = %v", err)
	}
}

// The stand-in records what each request carried: the key and the
// namespace reach the endpoint, on every route the client calls.
func TestStandInSeesKeyAndNamespace(t *testing.T) {
	dir := t.TempDir()
	ca := standin.NewCA(t, dir)
	cert, key := ca.Issue(t, dir, []string{"127.0.0.1"})
	record := filepath.Join(dir, "headers.jsonl")
	srv := standin.Start(t, standin.Options{Cert: cert, KeyFile: key, APIKey: testKey, Env: []string{"TESTSERVER_HEADERS=" + record}})
	c, err := New(srv.URL, Options{Key: BindKey(secret.New(testKey), srv.URL), Namespace: "app", CACert: ca.PEMPath})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.GetInstance(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WhoAmI(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(record)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("recorded %q", data)
	}
	for _, l := range lines {
		if !strings.Contains(l, `"authorization":true`) || !strings.Contains(l, `"namespace":"app"`) {
			t.Fatalf("request without key or namespace: %s", l)
		}
	}
}
