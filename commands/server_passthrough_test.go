//go:build unix

package commands

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
)

// `loams dev …` becomes the server (same pid), so killing loams kills the
// server: no orphan holds the ports afterwards. Every listener but the
// native one is switched off, as a user running a second server would:
// the default engine ports (6333, 9200, …) may belong to someone else.
// No timers: each wait ends with the server's own output or its exit.
func TestPassThroughExecsInPlace(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(testbin.Loams(t), "dev", "--data-dir", filepath.Join(t.TempDir(), "data"), "--listen", addr,
		"--no-flight-sql", "--no-mcp", "--no-qdrant", "--no-es", "--no-durable", "--no-live")
	cmd.Env = cliEnv(t)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(out)
	want := fmt.Sprintf("loams stand-in starting (pid %d,", cmd.Process.Pid)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), want) {
		t.Fatalf("first line %q, want %q: the server must run in loams' own process (stderr: %s)", sc.Text(), want, stderr.String())
	}
	listening := "loams listening on http://" + addr
	for sc.Scan() {
		if sc.Text() == listening {
			break
		}
	}
	if sc.Text() != listening {
		t.Fatalf("the server never said %q (stderr: %s)", listening, stderr.String())
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("the server says it listens on %s, but: %v", addr, err)
	}
	c.Close()
	_ = cmd.Process.Kill() // what a killed terminal or a test timeout does
	_ = cmd.Wait()
	// The pid that was loams was the server: now that it is reaped, its
	// listening socket is closed, with nothing left to wait for.
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Fatalf("%s still answers after loams was killed: an orphan server", addr)
	}
}

// A "server" that is this CLI again must not recurse: the marker the
// pass-through sets makes the second loams refuse with usage.
func TestPassThroughRefusesToRecurse(t *testing.T) {
	t.Parallel()
	env := append(cliEnv(t), "LOAMS_SERVER_BINARY="+testbin.Loams(t))
	// A recursion would never end: bound it by the test's own deadline
	// (go test -timeout), less a margin to report it, not by a guess.
	ctx, cancel := context.WithCancel(context.Background())
	if d, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(context.Background(), d.Add(-5*time.Second))
	}
	defer cancel()
	cmd := exec.CommandContext(ctx, testbin.Loams(t), "dev", "--help")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("loams dev with LOAMS_SERVER_BINARY=loams did not end: %s", out)
	}
	ee, _ := err.(*exec.ExitError)
	if ee == nil || ee.ExitCode() != 2 || !strings.Contains(string(out), "loams CLI") {
		t.Fatalf("want usage (exit 2) naming the CLI, got %v: %s", err, out)
	}
}
