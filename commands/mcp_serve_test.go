//go:build unix

package commands

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"loams.dev/cli/internal/testkit/testbin"
)

// Issue 16, item 5: `loams mcp serve` on a terminal says in one line what
// it is and how to quit; Ctrl-C exits 130 and Ctrl-D exits 0, neither with
// an error line.
func TestMCPServeOnTerminal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		key  string
		code int
	}{{"\x03", 130}, {"\x04", 0}} {
		t.Run(map[string]string{"\x03": "ctrl-c", "\x04": "ctrl-d"}[tc.key], func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(testbin.Loams(t), "mcp", "serve")
			cmd.Env = append(os.Environ(), "LOAMS_HOME="+t.TempDir(), "LOAMS_SECRETS=file", "TERM=dumb")
			term, err := pty.Start(cmd)
			if err != nil {
				t.Skipf("no pseudo-terminal here: %v", err)
			}
			defer term.Close()
			lines := make(chan string, 16)
			go func() {
				sc := bufio.NewScanner(term)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			select {
			case l := <-lines:
				for _, want := range []string{"coding agents start", "loams mcp install", "Ctrl-D"} {
					if !strings.Contains(l, want) {
						t.Errorf("greeting %q lacks %q", l, want)
					}
				}
			case <-time.After(20 * time.Second):
				t.Fatal("no greeting on the terminal")
			}
			if _, err := term.Write([]byte(tc.key)); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				}
				if code != tc.code {
					t.Errorf("exit %d, want %d", code, tc.code)
				}
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatal("mcp serve kept running")
			}
			for l := range lines {
				if strings.Contains(l, "ERROR") || strings.Contains(l, "error:") {
					t.Errorf("an error line on exit: %s", l)
				}
			}
		})
	}
}
