//go:build unix

package mcpserve

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const startSlow = `{"jsonrpc":"2.0","id":"start","method":"tools/call","params":{"name":"stack_start","arguments":{"name":"slow"}}}`

// startWaiting has mcp serve wait in a stack_start (the stand-in is not
// ready for a minute) and returns once the server process is up.
func startWaiting(t *testing.T) *proc {
	t.Helper()
	s := serverFor(t, withStandIn(), withEnv("TESTSERVER_READY_DELAY=60s"))
	createStack(t, s.env, "slow")
	p := s.start()
	p.send(initLine, initDone)
	p.next()
	p.send(startSlow)
	pid := filepath.Join(p.home, "stacks", "slow", "server.pid")
	eventually(func() bool { _, err := os.Stat(pid); return err == nil })
	return p
}

// eventually polls cond until it holds, for events that leave no line to
// wait on (a file appearing); the test's own timeout bounds it.
func eventually(cond func() bool) {
	for !cond() {
		time.Sleep(10 * time.Millisecond)
	}
}

// holdsOpen reports whether process pid has path open; a test that needs
// it skips where there is no /proc to tell.
func holdsOpen(t *testing.T, pid int, path string) bool {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("needs /proc to see what the server holds open: %v", err)
	}
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && target == path {
			return true
		}
	}
	return false
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
			p := startWaiting(t)
			sent := time.Now()
			p.kill(tc.sig)
			rest, code := p.waitExit()
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
	holdsOpen(t, os.Getpid(), "") // skips where there is no /proc
	s := serverFor(t, withStandIn())
	createStack(t, s.env, "slow")
	lockPath, err := filepath.EvalSymlinks(filepath.Join(s.home, "stacks", "slow"))
	if err != nil {
		t.Fatal(err)
	}
	lockPath = filepath.Join(lockPath, "lock")
	lock, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	p := s.start()
	p.send(initLine, initDone)
	p.next()
	p.send(startSlow)
	// The start waits for the lock with the lock file open.
	eventually(func() bool { return holdsOpen(t, p.cmd.Process.Pid, lockPath) })
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"start","reason":"user"}}`,
		`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if l := p.next(); !strings.Contains(l, `"id":"after"`) {
		t.Fatalf("want only the ping's answer, got %.300s", l)
	}
	// A start that gave up closes the lock file; one that ignored the
	// cancel would keep waiting with it open, and take the lock below.
	eventually(func() bool { return !holdsOpen(t, p.cmd.Process.Pid, lockPath) })
	_ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	rest, code := p.wait()
	if code != 0 || len(rest) != 0 {
		t.Errorf("the cancelled call must get no answer: exit %d, lines %v", code, rest)
	}
	if _, err := os.Stat(filepath.Join(s.home, "stacks", "slow", "server.pid")); err == nil {
		t.Error("the cancelled start went on once the lock was free")
	}
}

// Issue 11, defect 3: notifications/cancelled for a stack_start waiting
// for readiness stops it; no answer is sent for it.
func TestCancelledStartWaitingForReady(t *testing.T) {
	t.Parallel()
	p := startWaiting(t)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"start"}}`)
	sent := time.Now()
	rest, code := p.wait()
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
	p := startServer(t)
	_ = p.stdout.Close()
	for i := 0; i < 5; i++ {
		_, _ = io.WriteString(p.stdin, initLine+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
	}
	<-p.exited
	if code := exitCode(p.err); code != 0 {
		t.Errorf("exit %v (%d), want 0", p.err, code)
	}
	_ = p.stdin.Close()
	if !strings.Contains(p.stderr.String(), "stdout is closed") {
		t.Errorf("want a log line saying why it stopped, stderr:\n%s", p.stderr.String())
	}
}
