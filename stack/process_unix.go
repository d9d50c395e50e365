//go:build unix

package stack

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"loams.dev/cli/internal/filelock"
)

// detach puts the server in its own session, so the CLI's terminal and
// its signals (Ctrl-C) do not reach it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// alive reports whether pid exists (a zombie child counts as gone).
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if data, err := os.ReadFile("/proc/" + itoa(int64(pid)) + "/stat"); err == nil {
		if _, rest, ok := strings.Cut(string(data), ") "); ok && strings.HasPrefix(rest, "Z") {
			return false
		}
	}
	return true
}

// signalGroup signals the server's process group (it leads its session).
func signalGroup(pid int, sig syscall.Signal) error { return syscall.Kill(-pid, sig) }

func sigterm(pid int) error { return signalGroup(pid, syscall.SIGTERM) }
func sigkill(pid int) error { return signalGroup(pid, syscall.SIGKILL) }

// lockFile takes an exclusive advisory lock, waiting until it is free or
// ctx ends (internal/filelock, which update and agents use too).
var lockFile = filelock.Lock

// startTime identifies a process beyond its pid, so a reused pid is not
// mistaken for our server: the start time in clock ticks from /proc on
// Linux, the `ps` start time elsewhere.
func startTime(pid int) string {
	if data, err := os.ReadFile("/proc/" + itoa(int64(pid)) + "/stat"); err == nil {
		if _, rest, ok := strings.Cut(string(data), ") "); ok {
			fields := strings.Fields(rest)
			if len(fields) > 19 {
				return fields[19]
			}
		}
		return ""
	}
	out, err := exec.Command("ps", "-o", "lstart=", "-p", itoa(int64(pid))).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
