package mcpserve

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a client or a server sent reaches the log inert: a `tail -f` of
// mcp.log, or the host's view of stderr, shows the escapes, never obeys them.
func TestLogLinesAreInert(t *testing.T) {
	var stderr bytes.Buffer
	path := filepath.Join(t.TempDir(), "logs", "mcp.log")
	log, closeFn := newLogger(&stderr, path)
	hostile := "x\x1b]52;c;ZXZpbA==\x07\u009b2J\x7f"
	log.Warn("call "+hostile, "arg", hostile, "error", errors.New(hostile))
	closeFn()
	file, _ := os.ReadFile(path)
	for name, out := range map[string]string{"stderr": stderr.String(), "mcp.log": string(file)} {
		if strings.ContainsFunc(strings.TrimSuffix(out, "\n"), func(r rune) bool {
			return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f
		}) {
			t.Errorf("%s carries a raw control: %q", name, out)
		}
		if !strings.Contains(out, "]52;c;ZXZpbA==") {
			t.Errorf("%s lost the text: %q", name, out)
		}
	}
}
