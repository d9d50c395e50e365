package mcpserve

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Issue 22: --read-only exposes the four tools that change nothing; a
// call to another is refused with tool_disabled and changes nothing.
func TestReadOnlyMode(t *testing.T) {
	t.Parallel()
	a := newAgentWith(t, []string{"--read-only"})
	list, err := a.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"get_sdk_snippet", "loams_info", "search_docs", "stack_status"}; !slices.Equal(names, want) {
		t.Fatalf("tools/list under --read-only: %v, want %v", names, want)
	}
	out, isErr := a.call("stack_create", map[string]any{"name": "app"})
	hint, _ := out["hint"].(string)
	if !isErr || out["error"] != "tool_disabled" || !strings.HasPrefix(hint, "ask the user") || !strings.Contains(hint, "--tools") {
		t.Errorf("stack_create under --read-only: %v", out)
	}
	if entries, _ := os.ReadDir(filepath.Join(a.home, "stacks")); len(entries) != 0 {
		t.Errorf("a refused stack_create left %d entries in the stacks directory", len(entries))
	}
	out, isErr = a.call("env_export", map[string]any{"name": "app"})
	if !isErr || out["error"] != "tool_disabled" {
		t.Errorf("env_export under --read-only: %v", out)
	}
	if _, err := os.Stat(filepath.Join(a.project, ".env.loams")); err == nil {
		t.Error("a refused env_export wrote .env.loams")
	}
	if out, isErr := a.call("loams_info", nil); isErr || out["access"].(map[string]any)["mode"] != "read-only" {
		t.Errorf("loams_info must show the mode: %v", out["access"])
	}
}

// --tools picks any subset; LOAMS_MCP_TOOLS does the same for hosts whose
// entries carry no arguments; the flag wins over the variable.
func TestToolsSubset(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		env  string
		want []string
	}{
		{[]string{"--tools", "stack_status,search_docs"}, "", []string{"search_docs", "stack_status"}},
		{nil, "LOAMS_MCP_TOOLS=read-only", []string{"get_sdk_snippet", "loams_info", "search_docs", "stack_status"}},
		{[]string{"--tools=env_export"}, "LOAMS_MCP_TOOLS=read-only", []string{"env_export"}},
	} {
		a := newAgentWith(t, tt.args, tt.env)
		list, err := a.session.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range list.Tools {
			names = append(names, tl.Name)
		}
		slices.Sort(names)
		if !slices.Equal(names, tt.want) {
			t.Errorf("%v %s: tools %v, want %v", tt.args, tt.env, names, tt.want)
		}
	}
}

// An unknown name is a usage error that lists the tools, before serving.
func TestToolsUnknownName(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--tools", "search_docs,stack_delete"}, {"--read-only", "--tools", "search_docs"}} {
		cmd := serverFor(t, withArgs(args...)).command()
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err == nil || !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("%v: want exit 2 (usage), got %v\n%s", args, err, out)
		}
		if args[0] == "--tools" && !strings.Contains(string(out), "add_package") {
			t.Errorf("%v: the error must list the tools:\n%s", args, out)
		}
	}
}
