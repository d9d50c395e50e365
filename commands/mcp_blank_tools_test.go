package commands

import (
	"os"
	"strings"
	"testing"
)

// A blank access mode names no tool: `--tools " "` or LOAMS_MCP_TOOLS=" "
// is a usage error (exit 2) before the server starts, never all eight
// tools. The control, no mode at all, serves (and ends at stdin's end).
func TestBlankToolsIsAUsageError(t *testing.T) {
	t.Parallel()
	base := append(os.Environ(), "LOAMS_HOME="+t.TempDir(), "LOAMS_NO_UPDATE_NOTIFIER=1", "LOAMS_MCP_TOOLS=")
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		code int
	}{
		{"no mode (control)", nil, []string{"mcp", "serve"}, 0},
		{"--tools blank", nil, []string{"mcp", "serve", "--tools", " "}, 2},
		{"--tools=blank", nil, []string{"mcp", "serve", "--tools= ,"}, 2},
		{"LOAMS_MCP_TOOLS blank", []string{"LOAMS_MCP_TOOLS= "}, []string{"mcp", "serve"}, 2},
		{"mcp install --tools blank", nil, []string{"mcp", "install", "--agent", "claude-code", "--scope", "project", "--tools", " ", "--dry-run"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := loamsWithStdin(t, append(append([]string(nil), base...), tc.env...), t.TempDir(), "", tc.args...)
			if code != tc.code || tc.code == 2 && !strings.Contains(errOut, "no tool") && !strings.Contains(errOut, "empty") {
				t.Errorf("exit %d, want %d: %s", code, tc.code, errOut)
			}
		})
	}
}
