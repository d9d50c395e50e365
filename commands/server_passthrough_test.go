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

	"loams.dev/cli/internal/testbin"
)

// `loams dev …` becomes the server (same pid), so killing loams kills the
// server: no orphan holds the ports afterwards.
func TestPassThroughExecsInPlace(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(testbin.Loams(t), "dev", "--data-dir", filepath.Join(t.TempDir(), "data"), "--listen", addr)
	cmd.Env = cliEnv(t)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	want := fmt.Sprintf("loams stand-in starting (pid %d,", cmd.Process.Pid)
	select {
	case line := <-lines:
		if !strings.HasPrefix(line, want) {
			t.Fatalf("first line %q, want %q: the server must run in loams' own process", line, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no output from the server")
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never listened")
		}
	}
	_ = cmd.Process.Kill() // what a killed terminal or a test timeout does
	_ = cmd.Wait()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("%s still answers after loams was killed: an orphan server", addr)
		}
	}
}

// A "server" that is this CLI again must not recurse: the marker the
// pass-through sets makes the second loams refuse with usage.
func TestPassThroughRefusesToRecurse(t *testing.T) {
	t.Parallel()
	env := append(cliEnv(t), "LOAMS_SERVER_BINARY="+testbin.Loams(t))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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
