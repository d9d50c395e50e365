//go:build unix

package stack_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
)

// Issue 28: a server killed while it starts is said so ("signal: killed"),
// not "exit code -1".
func TestServerKilledWhileStartingSaysSo(t *testing.T) {
	t.Parallel()
	f := newFixture(t, "TESTSERVER_READY_DELAY=30s")
	d, err := f.create(t, "killed", false)
	if err != nil {
		t.Fatal(err)
	}
	pidPath := filepath.Join(filepath.Dir(d.LogPath), "..", "server.pid")
	go func() {
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			var p struct{ PID int }
			if b, err := os.ReadFile(pidPath); err == nil && json.Unmarshal(b, &p) == nil && p.PID > 0 {
				syscall.Kill(p.PID, syscall.SIGKILL)
				return
			}
		}
	}()
	_, err = f.sv.Start(context.Background(), "killed", 20*time.Second)
	e := errs.As(err)
	if e.Code != errs.ServerError || !strings.Contains(e.Message, "killed") || strings.Contains(e.Message, "exit code -1") {
		t.Fatalf("got %+v", e)
	}
}
