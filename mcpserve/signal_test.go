//go:build unix

package mcpserve_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/internal/testbin"
)

const startSlow = `{"jsonrpc":"2.0","id":"start","method":"tools/call","params":{"name":"stack_start","arguments":{"name":"slow"}}}`

// startWaiting has mcp serve wait in a stack_start (the stand-in is not
// ready for a minute) and returns once the server process is up.
func startWaiting(t *testing.T) (*proc, []string, string) {
	t.Helper()
	env, home := serveEnv(t, "TESTSERVER_READY_DELAY=60s")
	createStack(t, env, "slow")
	p := startServe(t, env)
	p.send(initLine, initDone)
	p.next(30 * time.Second)
	p.send(startSlow)
	pid := filepath.Join(home, "stacks", "slow", "server.pid")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(pid); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stack never started; stderr:\n%s", p.stderr.String())
		}
	}
	return p, env, home
}

// Issue 11, defect 2: SIGTERM during a stack_start that waits for
// readiness answers the call, and the server exits 0 within 2 s. SIGINT
// does the same with 130 and no ERROR line (issue 16, item 5); SIGHUP
// like SIGTERM (issue 24).
func TestSignalDuringStackStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 0}, {syscall.SIGINT, 130}, {syscall.SIGHUP, 0}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			t.Parallel()
			p, _, _ := startWaiting(t)
			sent := time.Now()
			_ = p.cmd.Process.Signal(tc.sig)
			rest, code := p.waitExit(10 * time.Second)
			took := time.Since(sent)
			t.Logf("%s → exit %d after %s", tc.sig, code, took)
			if code != tc.code || took > 2*time.Second {
				t.Errorf("want exit %d within 2 s, got %d after %s", tc.code, code, took)
			}
			if len(rest) != 1 || !strings.Contains(rest[0], `"id":"start"`) || !strings.Contains(rest[0], "interrupted") {
				t.Errorf("the stack_start in flight: want one interrupted answer, got %v", rest)
			}
			if errs := errorLines(p.stderr.String()); len(errs) > 0 || strings.Contains(p.stderr.String(), "error:") {
				t.Errorf("no error lines on a signal:\n%s", p.stderr.String())
			}
		})
	}
}

// Issue 11, defects 2 and 3: a stack_start waiting on the stack lock (a
// CLI start holds it) is cancelled by notifications/cancelled: no answer
// is sent, and when the lock is freed the cancelled start does not run.
func TestCancelledStartWaitingOnLock(t *testing.T) {
	t.Parallel()
	env, home := serveEnv(t)
	createStack(t, env, "slow")
	lock, err := os.OpenFile(filepath.Join(home, "stacks", "slow", "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	p := startServe(t, env)
	p.send(initLine, initDone)
	p.next(30 * time.Second)
	p.send(startSlow)
	time.Sleep(time.Second) // the call is now waiting for the lock
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"start","reason":"user"}}`,
		`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if l := p.next(10 * time.Second); !strings.Contains(l, `"id":"after"`) {
		t.Fatalf("want only the ping's answer, got %.300s", l)
	}
	_ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	time.Sleep(1500 * time.Millisecond) // a start that went on would have written its pid by now
	if _, err := os.Stat(filepath.Join(home, "stacks", "slow", "server.pid")); err == nil {
		t.Error("the cancelled start went on once the lock was free")
	}
	rest, code := p.wait(10 * time.Second)
	if code != 0 || len(rest) != 0 {
		t.Errorf("the cancelled call must get no answer: exit %d, lines %v", code, rest)
	}
}

// Issue 11, defect 3: notifications/cancelled for a stack_start waiting
// for readiness stops it; no answer is sent for it.
func TestCancelledStartWaitingForReady(t *testing.T) {
	t.Parallel()
	p, _, _ := startWaiting(t)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"start"}}`)
	sent := time.Now()
	rest, code := p.wait(10 * time.Second)
	if code != 0 || len(rest) != 0 {
		t.Errorf("want no answer and exit 0, got exit %d, lines %v", code, rest)
	}
	if took := time.Since(sent); took > 5*time.Second {
		t.Errorf("the cancelled start kept the server for %s", took)
	}
}

// Issue 11, defect 7: a client that closes our stdout ends the server
// with a log line and exit 0, not death by SIGPIPE.
func TestClosedStdout(t *testing.T) {
	t.Parallel()
	env, _ := serveEnv(t)
	cmd := exec.Command(testbin.Loams(t), "mcp", "serve")
	cmd.Env = env
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr testbin.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdout.Close()
	for i := 0; i < 5; i++ {
		_, _ = stdin.Write([]byte(initLine + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"))
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if code := exitCode(err); code != 0 {
			t.Errorf("exit %v (%d), want 0", err, code)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the server kept running with its stdout closed")
	}
	stdin.Close()
	if !strings.Contains(stderr.String(), "stdout is closed") {
		t.Errorf("want a log line saying why it stopped, stderr:\n%s", stderr.String())
	}
}
