//go:build unix

package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The leak check sees a detached grandchild-style process (own session,
// as the supervisor starts servers) that carries the run's token, and
// nothing once it is gone.
func TestLeaksFindsAStrayProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the leak check reads /proc")
	}
	token := "leak-check-test-" + strconv.Itoa(os.Getpid())
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), runMarker+"="+token)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep binary:", err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	// A CI machine once failed the first scan straight after Start. Give
	// /proc a moment, then tell a machine whose /proc does not show the
	// child's environment (the check cannot work there) from a real miss.
	found := false
	for deadline := time.Now().Add(2 * time.Second); !found && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, l := range Leaks(token) {
			found = found || l.pid == cmd.Process.Pid
		}
	}
	if !found {
		env, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "environ"))
		switch {
		case err != nil:
			t.Skipf("this machine's /proc does not show pid %d's environment (%v), so the leak check cannot work here", cmd.Process.Pid, err)
		case !strings.Contains(string(env), runMarker+"="):
			t.Skipf("this machine's /proc shows pid %d without the environment it was started with (%d bytes, no %s), so the leak check cannot work here", cmd.Process.Pid, len(env), runMarker)
		}
		t.Fatalf("pid %d carries %s but Leaks did not report it; its environment: %q", cmd.Process.Pid, runMarker, env)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if l := Leaks(token); len(l) != 0 {
		t.Errorf("after it exited: %v", l)
	}
}
