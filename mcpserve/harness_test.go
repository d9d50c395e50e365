package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/testkit/testbin"
)

// The one way these tests start `loams mcp serve`: startServer(t, opts...)
// runs the built binary, or with inProcess a Server over pipes in this
// process, in a throwaway LOAMS_HOME with the file secret store, so no test
// touches the developer's keyring or stacks. Tests that need the home
// before the start (a stack to create) call serverFor, then start.

// TestMain fails the run when a process a test started outlives it.
func TestMain(m *testing.M) {
	// Every `loams mcp serve` these tests start has a LOAMS_HOME of its own;
	// the tests' builds claim each stack's ports from every test process of
	// the run (stack/seam_loamstest.go), so none reach for the same ones.
	os.Exit(testbin.Main(m))
}

// rpc is one JSON-RPC message as the server wrote it.
type rpc struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

const (
	initLegacy = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	initDone   = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

var initLine = fmt.Sprintf(initLegacy, "2025-11-25")

// serverSetup is a server about to start: its home, project and
// environment.
type serverSetup struct {
	t       *testing.T
	home    string
	project string   // CLAUDE_PROJECT_DIR
	extra   []string // variables beyond the home's, in order
	args    []string // after `mcp serve`
	env     []string // the binary's whole environment
	// inProcess, when set, runs a Server here; configure adjusts its
	// Options (test-only tools, SignalsReady, Access).
	inProcess bool
	configure func(*Options)
}

type serverOption func(*serverSetup)

// withEnv adds environment variables (KEY=value).
func withEnv(kv ...string) serverOption {
	return func(s *serverSetup) { s.extra = append(s.extra, kv...) }
}

// withStandIn makes the stand-in (internal/testkit/testserver) the loams server.
func withStandIn() serverOption {
	return func(s *serverSetup) {
		s.extra = append(s.extra, "LOAMS_SERVER_BINARY="+testbin.Build(s.t, "./internal/testkit/testserver"))
	}
}

// inProject sets the agent's project directory (CLAUDE_PROJECT_DIR).
func inProject(dir string) serverOption { return func(s *serverSetup) { s.project = dir } }

// withArgs passes flags after `mcp serve`.
func withArgs(args ...string) serverOption {
	return func(s *serverSetup) { s.args = append(s.args, args...) }
}

// inProcess runs the Server in this process, configure (may be nil)
// adjusting its Options.
func inProcess(configure func(*Options)) serverOption {
	return func(s *serverSetup) { s.inProcess, s.configure = true, configure }
}

func serverFor(t *testing.T, opts ...serverOption) *serverSetup {
	t.Helper()
	s := &serverSetup{t: t, home: t.TempDir(), project: t.TempDir()}
	for _, o := range opts {
		o(s)
	}
	s.env = append(os.Environ(), s.own()...)
	return s
}

// own is the environment the setup adds, later entries winning.
func (s *serverSetup) own() []string {
	return append([]string{"LOAMS_HOME=" + s.home, "LOAMS_SECRETS=file", "CLAUDE_PROJECT_DIR=" + s.project}, s.extra...)
}

// command is the binary's command, for a test that drives it itself
// (the go-sdk client's CommandTransport, a usage error).
func (s *serverSetup) command() *exec.Cmd {
	cmd := exec.Command(testbin.Loams(s.t), append([]string{"mcp", "serve"}, s.args...)...)
	cmd.Env, cmd.Dir = s.env, s.t.TempDir() // never inside this repository
	return cmd
}

// proc is a running server fed line by line.
type proc struct {
	*serverSetup
	cmd    *exec.Cmd // nil in process
	stdin  io.WriteCloser
	stdout io.ReadCloser
	lines  chan string
	stderr *testbin.Buffer
	exited chan struct{}
	err    error
	signal context.CancelFunc // in process: what SIGTERM does
}

func startServer(t *testing.T, opts ...serverOption) *proc {
	t.Helper()
	return serverFor(t, opts...).start()
}

func (s *serverSetup) start() *proc {
	t := s.t
	t.Helper()
	p := &proc{serverSetup: s, lines: make(chan string, 1024), stderr: &testbin.Buffer{}, exited: make(chan struct{})}
	wait := func() error { return p.cmd.Wait() }
	if s.inProcess {
		wait = s.serveHere(p)
	} else {
		p.cmd = s.command()
		p.cmd.Stderr = p.stderr
		p.stdin, _ = p.cmd.StdinPipe()
		p.stdout, _ = p.cmd.StdoutPipe()
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
	}
	go func() {
		sc := bufio.NewScanner(p.stdout)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		p.err = wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		_ = p.stdin.Close()
		select {
		case <-p.exited:
		default:
			if p.cmd != nil {
				_ = p.cmd.Process.Kill()
			} else {
				p.signal()
			}
			<-p.exited
		}
	})
	return p
}

// serveHere starts a Server in a goroutine over pipes; the result waits
// for Serve to return.
func (s *serverSetup) serveHere(p *proc) func() error {
	vars := map[string]string{}
	for _, kv := range s.own() {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	opts := Options{Home: home.Home{Dir: s.home}, Getenv: func(k string) string { return vars[k] },
		Build: buildinfo.Info{Version: "0.1.0", Commit: "abc1234"}, Stderr: p.stderr}
	if s.configure != nil {
		s.configure(&opts)
	}
	srv, closeLog := New(opts)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p.stdin, p.stdout, p.signal = inW, outR, cancel
	served := make(chan error, 1)
	go func() {
		err := srv.Serve(ctx, inR, outW)
		closeLog()
		_ = outW.Close()
		served <- err
	}()
	return func() error { err := <-served; cancel(); return err }
}

func (p *proc) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.stdin, l+"\n"); err != nil {
			p.t.Fatalf("writing to mcp serve: %v", err)
		}
	}
}

// next returns the next stdout line; the test's own timeout bounds the
// wait.
func (p *proc) next() string {
	p.t.Helper()
	l, ok := <-p.lines
	if !ok {
		p.t.Fatalf("stdout closed; stderr:\n%s", p.stderr.String())
	}
	return l
}

// wait closes stdin, collects the remaining lines and returns the exit
// code.
func (p *proc) wait() (rest []string, code int) {
	p.t.Helper()
	_ = p.stdin.Close()
	return p.waitExit()
}

// waitExit collects the remaining lines until the server exits.
func (p *proc) waitExit() (rest []string, code int) {
	for l := range p.lines {
		rest = append(rest, l)
	}
	<-p.exited
	return rest, exitCode(p.err)
}

// kill sends sig to the binary; in process, SIGTERM and SIGINT cancel
// Serve's context as the signal handler would.
func (p *proc) kill(sig syscall.Signal) {
	if p.cmd == nil {
		p.signal()
		return
	}
	_ = p.cmd.Process.Signal(sig)
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// errorLines are the stderr log lines at error level.
func errorLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "level=ERROR") {
			out = append(out, l)
		}
	}
	return out
}

// transcript is what a server answered to a whole input.
type transcript struct {
	byID   map[string]rpc // the messages by id ("null" for id null)
	lines  []string
	stderr string
	home   string
}

// run pipes input into a server, which must exit 0 once it ends, and
// checks that stdout holds only JSON-RPC (one message or batch per line).
func run(t *testing.T, input string, opts ...serverOption) transcript {
	t.Helper()
	p := startServer(t, opts...)
	if _, err := io.WriteString(p.stdin, input); err != nil {
		t.Fatal(err)
	}
	out, code := p.wait()
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	tr := transcript{byID: map[string]rpc{}, lines: out, stderr: p.stderr.String(), home: p.home}
	for _, m := range answers(t, out) {
		if m.JSONRPC != "2.0" || (m.Result == nil && m.Error == nil && m.Method == "") {
			t.Fatalf("stdout holds a message that is not JSON-RPC 2.0: %+v", m)
		}
		tr.byID[string(m.ID)] = m
	}
	return tr
}

// answers splits stdout lines into messages (a batch line holds several).
func answers(t *testing.T, lines []string) []rpc {
	t.Helper()
	var out []rpc
	for _, l := range lines {
		var msgs []rpc
		if strings.HasPrefix(l, "[") {
			if err := json.Unmarshal([]byte(l), &msgs); err != nil {
				t.Fatalf("not a batch: %v\n%s", err, l)
			}
		} else {
			var m rpc
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("not JSON: %v\n%.300s", err, l)
			}
			msgs = []rpc{m}
		}
		out = append(out, msgs...)
	}
	return out
}
