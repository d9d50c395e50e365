package commands

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"

	"loams.dev/cli/internal/testkit/testbin"
)

// checkFits fails when a line of out is wider than width, and returns the
// number of lines (a wrapped table has more than one a row).
func checkFits(t *testing.T, out string, width int) int {
	t.Helper()
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(out, "\r\n", "\n"), "\n"), "\n")
	for _, l := range lines {
		if len([]rune(l)) > width {
			t.Errorf("line of %d > %d: %q", len([]rune(l)), width, l)
		}
	}
	return len(lines)
}

// Issue 21: tables fit COLUMNS; piped without it they keep every byte.
func TestTablesFitColumns(t *testing.T) {
	t.Parallel()
	wide := runLoams(t, nil, false, "mcp", "tools")
	narrow := runLoams(t, map[string]string{"COLUMNS": "70"}, false, "mcp", "tools")
	if wide.code != 0 || narrow.code != 0 {
		t.Fatalf("exit %d %d: %s %s", wide.code, narrow.code, wide.stderr, narrow.stderr)
	}
	if n := checkFits(t, narrow.stdout, 70); n <= strings.Count(wide.stdout, "\n") {
		t.Errorf("COLUMNS=70 did not wrap (%d lines):\n%s", n, narrow.stdout)
	}
	if !strings.Contains(narrow.stdout, "get_sdk_snippet") || !strings.Contains(narrow.stdout, "Get a Loams code snippet") {
		t.Errorf("name or title cut:\n%s", narrow.stdout)
	}
}

// Issue 21: at a terminal without COLUMNS, the terminal's own width.
func TestTablesFitTheTerminal(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(testbin.Loams(t), "mcp", "tools")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "COLUMNS=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "LOAMS_HOME="+t.TempDir(), "TERM=dumb", "NO_COLOR=1")
	term, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 66, Rows: 50})
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer term.Close()
	var out bytes.Buffer
	io.Copy(&out, term) // ends with EIO when the child closes its side
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if n := checkFits(t, out.String(), 66); n < 10 || !strings.Contains(out.String(), "search_docs") {
		t.Errorf("%d lines:\n%s", n, out.String())
	}
}
