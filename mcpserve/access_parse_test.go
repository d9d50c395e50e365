package mcpserve

import (
	"slices"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

func TestParseAccess(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		readOnly bool
		tools    string
		mode     string
		want     []string
	}{
		{false, "", "all", nil},
		{true, "", "read-only", readOnlyTools},
		{false, " env_export, search_docs ,env_export,", "tools", []string{"env_export", "search_docs"}},
	} {
		a, err := ParseAccess(tt.readOnly, tt.tools)
		if err != nil || a.mode() != tt.mode || !slices.Equal(a.Tools, tt.want) {
			t.Errorf("ParseAccess(%v, %q) = %+v, %v", tt.readOnly, tt.tools, a, err)
		}
	}
	for _, bad := range []struct {
		readOnly bool
		tools    string
	}{{false, "stack_delete"}, {false, ","}, {true, "search_docs"}, {false, "Search_Docs"}, {false, " "}, {false, "\t"}, {true, " "}} {
		if _, err := ParseAccess(bad.readOnly, bad.tools); !errs.Is(err, errs.Usage) {
			t.Errorf("ParseAccess(%v, %q): want usage, got %v", bad.readOnly, bad.tools, err)
		}
	}
	if a, err := AccessFromEnv("read-only"); err != nil || a.mode() != "read-only" {
		t.Errorf("LOAMS_MCP_TOOLS=read-only: %+v %v", a, err)
	}
	if _, err := AccessFromEnv(" "); !errs.Is(err, errs.Usage) {
		t.Errorf("LOAMS_MCP_TOOLS=\" \": want usage, got %v", err)
	}
	_, err := AccessFromEnv("nope")
	if e := errs.As(err); e.Code != errs.Usage || !strings.HasPrefix(e.Message, "LOAMS_MCP_TOOLS") || !strings.Contains(e.Hint, "add_package") {
		t.Errorf("LOAMS_MCP_TOOLS=nope: %+v", e)
	}
}
