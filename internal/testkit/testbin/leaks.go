package testbin

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runMarker is set in the test process's environment, so every process a
// test starts (and everything those start: detached servers included)
// inherits it, unless a test hands a child an environment of its own.
const runMarker = "LOAMS_TEST_RUN"

// Main runs the package's tests and fails the run when a process a test
// started outlives them: use it as `func TestMain(m *testing.M) {
// os.Exit(testbin.Main(m)) }` in every package that starts processes.
// Leaked processes are listed and killed, so a failure leaves none behind.
// The check reads /proc and runs on Linux; elsewhere it is skipped.
func Main(m *testing.M) int {
	token := strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	os.Setenv(runMarker, token)
	code := m.Run()
	Cleanup()
	if leaked := awaitLeaks(token, 3*time.Second); len(leaked) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d process(es) started by these tests outlived them (killed now):\n", len(leaked))
		for _, l := range leaked {
			fmt.Fprintf(os.Stderr, "  pid %d: %s\n", l.pid, l.cmd)
			if p, err := os.FindProcess(l.pid); err == nil {
				_ = p.Kill()
			}
		}
		return 1
	}
	return code
}

type leak struct {
	pid int
	cmd string
}

// awaitLeaks gives processes that were just signalled a moment to exit,
// then reports those still carrying the token.
func awaitLeaks(token string, d time.Duration) []leak {
	deadline := time.Now().Add(d)
	for {
		leaked := Leaks(token)
		if len(leaked) == 0 || time.Now().After(deadline) {
			return leaked
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Leaks lists live processes (zombies excluded: they hold nothing) other
// than this one whose environment carries the run's token.
func Leaks(token string) []leak {
	if runtime.GOOS != "linux" {
		return nil
	}
	// A /proc from another PID namespace numbers processes differently:
	// reporting (and killing) by its numbers would hit the wrong ones.
	if self, err := os.Readlink("/proc/self"); err != nil || self != strconv.Itoa(os.Getpid()) {
		return nil
	}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var out []leak
	for _, p := range procs {
		pid, _ := strconv.Atoi(filepath.Base(p))
		if pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join(p, "environ"))
		if err != nil || !strings.Contains(string(env), "\x00"+runMarker+"="+token+"\x00") && !strings.HasPrefix(string(env), runMarker+"="+token+"\x00") {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join(p, "stat")); err == nil {
			if _, rest, ok := strings.Cut(string(stat), ") "); ok && strings.HasPrefix(rest, "Z") {
				continue
			}
		}
		cmd, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		out = append(out, leak{pid: pid, cmd: strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " "))})
	}
	return out
}
