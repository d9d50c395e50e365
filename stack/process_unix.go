//go:build unix

package stack

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
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

// lockFile takes an exclusive advisory lock; closing the file releases it,
// and so does the process dying, so a killed CLI never leaves it held.
// Waiting for it ends with ctx: a cancelled start (an agent's
// notifications/cancelled, a SIGTERM to mcp serve) must not take the lock
// minutes later and carry on as if still wanted. It polls a non-blocking
// flock, as a blocked flock cannot be interrupted.
func lockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, &os.PathError{Op: "lock", Path: path, Err: err}
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// lockPoll is how often a waiting lock is retried: what a second caller
// may lose after the first lets go.
const lockPoll = 5 * time.Millisecond

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
