//go:build unix

package stack_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// Ctrl-C while a new stack's server starts takes back all the create
// made: the server, the key, the directory. The same create then works.
func TestCancelledCreateLeavesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_READY_DELAY=1h")
	dir := f.sv.Home.Stack("dev")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := f.sv.Create(ctx, stack.CreateOptions{Name: "dev", ServerBinary: f.bin, PortBase: portBase(t), Start: true, Wait: time.Hour})
		done <- err
	}()
	pid := waitForPid(t, filepath.Join(dir, "server.pid"), done)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("create: %v, want the cancellation", err)
	}
	if !processGone(pid) {
		t.Errorf("the server (pid %d) outlived the cancelled create", pid)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s is left behind: %v", dir, err)
	}
	if _, err := f.store.Get(context.Background(), "dev"); !errors.Is(err, secret.ErrNotFound) {
		t.Errorf("the key is left behind: %v", err)
	}
	if _, err := f.create(t, "dev", false); err != nil {
		t.Errorf("create after a cancelled one: %v", err)
	}
}

// A create killed outright leaves its marker naming a process that is
// gone: the next create of the name clears it away instead of refusing
// with stack_exists. A finished create leaves no marker.
func TestAbandonedCreateIsCleared(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if _, err := f.create(t, "dev", false); err != nil {
		t.Fatal(err)
	}
	dir := f.sv.Home.Stack("dev")
	marker := filepath.Join(dir, "creating")
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a finished create left its marker: %v", err)
	}
	if _, err := f.create(t, "dev", false); code(err) != errs.StackExists {
		t.Fatalf("second create of a finished stack: %v, want stack_exists", err)
	}
	old, _ := f.store.Get(context.Background(), "dev")
	// This process, but another start time: a pid the kernel reused.
	if err := os.WriteFile(marker, []byte(`{"pid":`+itoa(os.Getpid())+`,"start_time":"elsewhen"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := f.create(t, "dev", false); err != nil {
		t.Fatalf("create over an abandoned one: %v", err)
	}
	if key, err := f.store.Get(context.Background(), "dev"); err != nil || key.Reveal() == old.Reveal() {
		t.Errorf("the abandoned stack's key was kept: %v", err)
	}
}

// waitForPid waits for the starting server to record its pid (or for the
// create to end early, which fails the test).
func waitForPid(t *testing.T, path string, done <-chan error) int {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		if data, err := os.ReadFile(path); err == nil {
			var p struct{ PID int }
			if json.Unmarshal(data, &p) == nil && p.PID > 0 {
				return p.PID
			}
		}
		select {
		case err := <-done:
			t.Fatalf("create ended before the server started: %v", err)
		case <-tick.C:
		}
	}
}

// processGone reports whether pid has exited: no such process, or a zombie
// (killed, not yet reaped by its parent, which is this test process: the
// supervisor does not wait for servers it detached, so kill -0 still
// succeeds for a moment after SIGKILL).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return os.IsNotExist(err)
	}
	// The state follows the command name, which is in parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}
