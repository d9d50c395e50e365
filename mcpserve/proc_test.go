package mcpserve_test

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/testbin"
)

// proc is a running `loams mcp serve` fed line by line, for the tests that
// need timing: requests in flight, signals, a stdin that stays open.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *testbin.Buffer
	exited chan struct{}
	err    error
}

// startServe starts the built binary with env (serverEnv(t) plus extras).
func startServe(t *testing.T, env []string) *proc {
	t.Helper()
	p := &proc{t: t, lines: make(chan string, 1024), stderr: &testbin.Buffer{}, exited: make(chan struct{})}
	p.cmd = exec.Command(testbin.Loams(t), "mcp", "serve")
	p.cmd.Env = env
	p.cmd.Stderr = p.stderr
	p.stdin, _ = p.cmd.StdinPipe()
	stdout, _ := p.cmd.StdoutPipe()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

func (p *proc) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.stdin, l+"\n"); err != nil {
			p.t.Fatalf("writing to mcp serve: %v", err)
		}
	}
}

// next returns the next stdout line, failing after d.
func (p *proc) next(d time.Duration) string {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatalf("stdout closed; stderr:\n%s", p.stderr.String())
		}
		return l
	case <-time.After(d):
		p.t.Fatalf("no answer within %s; stderr:\n%s", d, p.stderr.String())
		return ""
	}
}

// wait closes stdin, collects the remaining lines and returns the exit
// code, failing if the process takes longer than d.
func (p *proc) wait(d time.Duration) (rest []string, code int) {
	p.t.Helper()
	_ = p.stdin.Close()
	return p.waitExit(d)
}

func (p *proc) waitExit(d time.Duration) (rest []string, code int) {
	p.t.Helper()
	timeout := time.After(d)
	for {
		select {
		case l, ok := <-p.lines:
			if ok {
				rest = append(rest, l)
				continue
			}
			<-p.exited
			return rest, exitCode(p.err)
		case <-timeout:
			p.t.Fatalf("mcp serve still running after %s; stderr:\n%s", d, p.stderr.String())
		}
	}
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

// serveEnv is serverEnv with the stand-in server and extra variables.
func serveEnv(t *testing.T, extra ...string) (env []string, home string) {
	t.Helper()
	home = t.TempDir()
	env = append(os.Environ(), "LOAMS_HOME="+home, "LOAMS_SECRETS=file", "CLAUDE_PROJECT_DIR="+t.TempDir(),
		"LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testserver"))
	return append(env, extra...), home
}
