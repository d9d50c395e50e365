//go:build linux

package stack_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/stack"
)

// Another process takes the stack's native port between loams checking it
// and the server binding it (a stack of another LOAMS_HOME, a test run next
// door): the server exits on "address in use", and the other process's
// /ready must not pass for ours. Seen in CI as a stack reported running whose
// server was already gone.
func TestReadyFromAnotherProcessIsNotOurs(t *testing.T) {
	t.Parallel()
	if self, _ := os.Readlink("/proc/self"); self != strconv.Itoa(os.Getpid()) {
		t.Skip("this /proc belongs to another PID namespace: loams cannot tell who holds a port here, and trusts /ready")
	}
	f := newFixture(t)
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	wrapper := filepath.Join(dir, "loams-server")
	script := fmt.Sprintf("#!/bin/sh\ncase \"$1\" in dev) case \"$2\" in --help|--version) ;; *) touch %s; sleep 0.5;; esac;; esac\nexec %s \"$@\"\n", started, f.bin)
	if err := testbin.WriteExecutable(wrapper, []byte(script)); err != nil {
		t.Fatal(err)
	}
	base := portBase(t)
	go func() {
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			if _, err := os.Stat(started); err == nil {
				break
			}
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", base+80))
		if err != nil {
			t.Errorf("take the native port: %v", err)
			return
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})}
		t.Cleanup(func() { srv.Close() })
		go srv.Serve(l)
	}()
	d, err := f.sv.Create(context.Background(), stack.CreateOptions{Name: "raced", Engines: []string{"native"},
		ServerBinary: wrapper, PortBase: base, Start: true, Wait: 15 * time.Second})
	if err == nil {
		t.Fatalf("create reported the stack running on another process's port: %+v pid %v", d.State, *d.PID)
	}
	if e := errs.As(err); e.Code != errs.ServerError {
		t.Fatalf("want server_error (the server exited), got %s: %s", e.Code, e.Message)
	}
}
