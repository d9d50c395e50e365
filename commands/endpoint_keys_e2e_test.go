package commands

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/testkit/testbin"
)

// keyServers are plain-http servers on loopback (http:// may carry a key
// there) that answer GetInstance and, with the key, WhoAmI, and record the
// Host and Authorization of every request that reaches any of them.
type keyServers struct {
	mu       sync.Mutex
	seen     []seenRequest
	redirect atomic.Pointer[[2]string] // {host, URL}: that host answers WhoAmI with 307 to URL
}

type seenRequest struct{ host, auth string }

func (k *keyServers) handler(w http.ResponseWriter, r *http.Request) {
	k.mu.Lock()
	k.seen = append(k.seen, seenRequest{r.Host, r.Header.Get("Authorization")})
	k.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, "/GetInstance"):
		w.Write([]byte(`{"serverVersion":"0.0.1","edition":"standard","services":[]}`))
	case k.redirect.Load() != nil && k.redirect.Load()[0] == r.Host:
		http.Redirect(w, r, k.redirect.Load()[1]+r.URL.Path, http.StatusTemporaryRedirect)
	case r.Header.Get("Authorization") != "Bearer "+remoteKey:
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"code":"unauthenticated","message":"no key"}`))
	default:
		w.Write([]byte(`{"principal":"u","keyId":"r3m0te0key00"}`))
	}
}

// listen serves on addr; ok is false when the address cannot be bound
// here (no IPv6, no 127.0.0.2).
func (k *keyServers) listen(t *testing.T, addr string) (port string, ok bool) {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", false
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(k.handler))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	_, port, _ = net.SplitHostPort(l.Addr().String())
	return port, true
}

// take returns the requests seen since the last take.
func (k *keyServers) take() []seenRequest {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := k.seen
	k.seen = nil
	return s
}

// loamsWithStdin runs the built binary with stdin and returns its output
// and exit code.
func loamsWithStdin(t *testing.T, env []string, dir, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), testbin.Loams(t), args...) // bounded by the test's own timeout
	cmd.Env, cmd.Dir, cmd.Stdin = env, dir, strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// The done-when, through the built binary: a key stored for origin
// A never reaches any other origin — another port, localhost for
// 127.0.0.1, a trailing dot, upper case, IPv6 forms, 127.0.0.2, a 307
// redirect, a profile edit, a proxy — from --endpoint or LOAMS_ENDPOINT,
// in whoami and status; where the key was needed the command fails
// unauthenticated (exit 8) naming both origins and the login for the new
// one. The first rows are the hostile review's reproductions.
func TestKeyStoredForOneOriginReachesNoOther(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	var k keyServers
	portA, _ := k.listen(t, "127.0.0.1:0")
	portB, _ := k.listen(t, "127.0.0.1:0")
	_, has127002 := k.listen(t, "127.0.0.2:"+portA)
	_, hasV6 := k.listen(t, "[::1]:"+portA)
	proxy := startRecordingProxy(t)
	a := "http://127.0.0.1:" + portA
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"app"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "LOAMS_HOME="+t.TempDir(), "LOAMS_SECRETS=file", "HOME="+t.TempDir(), "CI=true", "CLAUDE_PROJECT_DIR=",
		"HTTP_PROXY=", "HTTPS_PROXY=", "http_proxy=", "https_proxy=", "NO_PROXY=", "no_proxy=", "LOAMS_ENDPOINT=")
	with := func(extra ...string) []string { return append(append([]string(nil), env...), extra...) }

	if _, errOut, code := loamsWithStdin(t, env, project, remoteKey+"\n", "--endpoint", a, "login", "--with-api-key"); code != 0 {
		t.Fatalf("login: exit %d\n%s", code, errOut)
	}
	// The control: the key does reach A, so the rows below prove a refusal.
	if out, errOut, code := loamsWithStdin(t, env, project, "", "whoami"); code != 0 || !strings.Contains(out, "127.0.0.1:"+portA) {
		t.Fatalf("whoami at A: exit %d\n%s%s", code, out, errOut)
	}
	if got := k.take(); len(got) == 0 || got[len(got)-1] != (seenRequest{"127.0.0.1:" + portA, "Bearer " + remoteKey}) {
		t.Fatalf("A did not get its key: %v", got)
	}

	type row struct {
		name, skip string
		env        []string
		args       []string
		asked      string // the origin the failure must name
	}
	rows := []row{
		{name: "LOAMS_ENDPOINT, another port (review)", env: with("LOAMS_ENDPOINT=http://127.0.0.1:" + portB), args: []string{"whoami"}, asked: "http://127.0.0.1:" + portB},
		{name: "--endpoint localhost, another port, status (review)", args: []string{"--endpoint", "http://localhost:" + portB, "status"}, asked: "http://localhost:" + portB},
		{name: "localhost for 127.0.0.1", args: []string{"--endpoint", "http://localhost:" + portA, "whoami"}, asked: "http://localhost:" + portA},
		{name: "trailing dot", args: []string{"--endpoint", "http://localhost.:" + portA, "whoami"}, asked: "http://localhost:" + portA},
		{name: "upper case", env: with("LOAMS_ENDPOINT=http://LOCALHOST:" + portA), args: []string{"status"}, asked: "http://localhost:" + portA},
		{name: "127.0.0.2", skip: skipUnless(has127002, "127.0.0.2"), args: []string{"--endpoint", "http://127.0.0.2:" + portA, "whoami"}, asked: "http://127.0.0.2:" + portA},
		{name: "IPv6", skip: skipUnless(hasV6, "[::1]"), args: []string{"--endpoint", "http://[::1]:" + portA, "whoami"}, asked: "http://[::1]:" + portA},
		{name: "IPv6 long form", skip: skipUnless(hasV6, "[::1]"), env: with("LOAMS_ENDPOINT=http://[0:0:0:0:0:0:0:1]:" + portA), args: []string{"status"}, asked: "http://[::1]:" + portA},
		{name: "through a proxy", env: with("HTTP_PROXY="+proxy.url, "http_proxy="+proxy.url, "NO_PROXY="), args: []string{"--endpoint", "http://localhost.:" + portA, "whoami"}, asked: "http://localhost:" + portA},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			if r.skip != "" {
				t.Skip(r.skip)
			}
			e := r.env
			if e == nil {
				e = env
			}
			out, errOut, code := loamsWithStdin(t, e, project, "", append([]string{"-o", "json"}, r.args...)...)
			wantKeyRefused(t, &k, proxy, out, errOut, code, a, r.asked)
		})
	}

	t.Run("a key for localhost. goes direct, never via the proxy", func(t *testing.T) {
		e := with("HTTP_PROXY="+proxy.url, "http_proxy="+proxy.url, "HTTPS_PROXY="+proxy.url, "NO_PROXY=")
		loop := "http://localhost.:" + portA
		if _, errOut, code := loamsWithStdin(t, e, project, "", "--profile", "loop", "configure", "set", "endpoint", loop); code != 0 {
			t.Fatalf("configure: exit %d\n%s", code, errOut)
		}
		if _, errOut, code := loamsWithStdin(t, e, project, remoteKey+"\n", "--profile", "loop", "login", "--with-api-key"); code != 0 {
			t.Fatalf("login: exit %d\n%s", code, errOut)
		}
		if _, errOut, code := loamsWithStdin(t, e, project, "", "--profile", "loop", "whoami"); code != 0 {
			t.Fatalf("whoami: exit %d\n%s", code, errOut)
		}
		if got := proxy.take(); len(got) > 0 {
			t.Fatalf("the key went through the proxy: %q", got)
		}
		got := k.take()
		if len(got) == 0 || got[len(got)-1] != (seenRequest{"localhost.:" + portA, "Bearer " + remoteKey}) {
			t.Fatalf("A did not get the key directly: %v", got)
		}
	})
	t.Run("307 redirect to another port", func(t *testing.T) {
		to := "http://127.0.0.1:" + portB
		k.redirect.Store(&[2]string{"127.0.0.1:" + portA, to})
		defer k.redirect.Store(nil)
		out, errOut, code := loamsWithStdin(t, env, project, "", "-o", "json", "whoami")
		wantKeyRefused(t, &k, proxy, out, errOut, code, a, to)
	})
	t.Run("profile edit", func(t *testing.T) {
		b := "http://127.0.0.1:" + portB
		if _, errOut, code := loamsWithStdin(t, env, project, "", "configure", "set", "endpoint", b); code != 0 {
			t.Fatal(errOut)
		}
		defer loamsWithStdin(t, env, project, "", "configure", "set", "endpoint", a)
		out, errOut, code := loamsWithStdin(t, env, project, "", "-o", "json", "whoami")
		wantKeyRefused(t, &k, proxy, out, errOut, code, a, b)
	})
	t.Run("env export names only the key's origin", func(t *testing.T) {
		b := "http://127.0.0.1:" + portB
		out, errOut, code := loamsWithStdin(t, with("LOAMS_ENDPOINT="+b), project, "", "-o", "json", "env", "export", "--write", ".env.loams")
		wantKeyRefused(t, &k, proxy, out, errOut, code, a, b)
		if _, err := os.Stat(filepath.Join(project, ".env.loams")); err == nil {
			t.Fatal(".env.loams was written for another origin")
		}
	})
	t.Run("MCP stack_status and env_export", func(t *testing.T) {
		b := "http://127.0.0.1:" + portB
		ctx := t.Context()
		session, _ := mcpSession(t, ctx, with("LOAMS_ENDPOINT="+b, "CLAUDE_PROJECT_DIR="+project), project)
		defer session.Close()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "stack_status", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("stack_status: %v %+v", err, res)
		}
		res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "env_export", Arguments: map[string]any{}})
		if err != nil || !res.IsError {
			t.Fatalf("env_export for another origin succeeded: %v", err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !strings.Contains(text, "unauthenticated") || !strings.Contains(text, a) || strings.Contains(text, remoteKey[19:]) {
			t.Fatalf("env_export: %s", text)
		}
		if _, err := os.Stat(filepath.Join(project, ".env.loams")); err == nil {
			t.Fatal(".env.loams was written for another origin")
		}
		for _, s := range k.take() {
			if s.auth != "" {
				t.Fatalf("%s got the key through MCP", s.host)
			}
		}
	})
}

func skipUnless(ok bool, what string) string {
	if ok {
		return ""
	}
	return "cannot listen on " + what + " here"
}

// wantKeyRefused checks one run: exit 8, unauthenticated naming the key's
// origin and the one asked for, with the login for it; no request carried
// the key anywhere but to its own origin (the first hop of a redirect),
// and nothing reached the proxy.
func wantKeyRefused(t *testing.T, k *keyServers, proxy *recordingProxy, stdout, stderr string, code int, stored, asked string) {
	t.Helper()
	for _, s := range k.take() {
		if s.auth != "" && "http://"+s.host != stored {
			t.Fatalf("the key stored for %s reached %s", stored, s.host)
		}
	}
	if got := proxy.take(); len(got) > 0 {
		t.Fatalf("requests went through the proxy: %q", got)
	}
	// status prints its report on stdout and exits with the error's code.
	type errorDoc struct {
		Error *struct{ Code, Message, Hint string }
	}
	var doc errorDoc
	if json.Unmarshal([]byte(stdout), &doc) != nil || doc.Error == nil { // not status: the error document on stderr
		doc = errorDoc{}
		if err := json.Unmarshal([]byte(stderr), &doc); err != nil || doc.Error == nil {
			t.Fatalf("exit %d, no error document:\n%s%s", code, stdout, stderr)
		}
	}
	e := doc.Error
	if code != 8 || e.Code != "unauthenticated" || !strings.Contains(e.Message, stored) || !strings.Contains(e.Message, asked) ||
		!strings.Contains(e.Hint, "loams login --with-api-key") || !strings.Contains(e.Hint, "--endpoint") {
		t.Fatalf("exit %d: %+v; want unauthenticated naming %s and %s", code, e, stored, asked)
	}
	if strings.Contains(stdout+stderr, remoteKey[19:]) {
		t.Fatal("the key is printed")
	}
}

// recordingProxy is an HTTP proxy on 127.0.0.1 that records each request
// that reaches it and answers 502.
type recordingProxy struct {
	mu   sync.Mutex
	seen []string
	url  string
}

func startRecordingProxy(t *testing.T) *recordingProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &recordingProxy{url: "http://" + l.Addr().String()}
	done := make(chan struct{})
	t.Cleanup(func() { l.Close(); <-done })
	go func() {
		defer close(done)
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			if req, err := http.ReadRequest(bufio.NewReader(conn)); err == nil {
				p.mu.Lock()
				p.seen = append(p.seen, req.Method+" "+req.URL.String()+" auth="+req.Header.Get("Authorization"))
				p.mu.Unlock()
			}
			conn.Write([]byte("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
			conn.Close()
		}
	}()
	return p
}

func (p *recordingProxy) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.seen
	p.seen = nil
	return s
}
