//go:build unix

package testbin

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
)

// The leak check sees a detached grandchild-style process (own session,
// as the supervisor starts servers) that carries the run's token, and
// nothing once it is gone.
func TestLeaksFindsAStrayProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the leak check reads /proc")
	}
	const token = "leak-check-test"
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), runMarker+"="+token)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep binary:", err)
	}
	found := false
	for _, l := range Leaks(token) {
		found = found || l.pid == cmd.Process.Pid
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if !found {
		t.Fatalf("pid %d not reported by Leaks", cmd.Process.Pid)
	}
	if l := Leaks(token); len(l) != 0 {
		t.Errorf("after it exited: %v", l)
	}
}
