package mcpserve

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (a *agent) result(name string, args map[string]any) *mcp.CallToolResult {
	a.t.Helper()
	res, err := a.session.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	return res
}

func structuredOf(res *mcp.CallToolResult) map[string]any {
	var out map[string]any
	data, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(data, &out)
	return out
}

// Issue 13: Gemini CLI adds wait_for_previous to every call. Each of the
// eight tools, called as Gemini calls it, must succeed and name the
// argument it ignored.
func TestGeminiWaitForPrevious(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	tools, err := a.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	snippet := map[string]any{}
	for _, tool := range tools.Tools {
		if tool.Name == "get_sdk_snippet" {
			data, _ := json.Marshal(tool.InputSchema)
			var s struct {
				Properties map[string]struct{ Enum []any } `json:"properties"`
			}
			_ = json.Unmarshal(data, &s)
			snippet["engine"], snippet["language"] = s.Properties["engine"].Enum[0], s.Properties["language"].Enum[0]
		}
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"search_docs", map[string]any{"query": "qdrant port"}},
		{"get_sdk_snippet", snippet},
		{"loams_info", map[string]any{}},
		{"stack_create", map[string]any{"name": "app", "start": false}},
		{"stack_status", map[string]any{}},
		{"stack_start", map[string]any{"name": "app"}},
		{"env_export", map[string]any{"name": "app"}},
		{"add_package", map[string]any{"package": "sdk", "dry_run": true}},
	}
	if len(calls) != len(tools.Tools) {
		t.Fatalf("the replay covers %d tools, the server has %d", len(calls), len(tools.Tools))
	}
	for _, c := range calls {
		c.args["wait_for_previous"] = true
		res := a.result(c.tool, c.args)
		if res.IsError {
			t.Errorf("%s with wait_for_previous: %v", c.tool, structuredOf(res))
		}
		if ig, _ := json.Marshal(res.Meta["loams/ignored_arguments"]); string(ig) != `["wait_for_previous"]` {
			t.Errorf("%s: _meta[loams/ignored_arguments] = %s, want [\"wait_for_previous\"]", c.tool, ig)
		}
	}
	log, _ := os.ReadFile(filepath.Join(a.home, "logs", "mcp.log"))
	if n := strings.Count(string(log), `"msg":"ignored arguments"`); n != len(calls) || !strings.Contains(string(log), "wait_for_previous") {
		t.Errorf("mcp.log: want %d \"ignored arguments\" lines naming wait_for_previous, got %d", len(calls), n)
	}
}

// Issue 13: exact strings convert ("limit":"3", "dry_run":"true"); the
// remaining type errors name the field in plain words. Issue 11, defect
// 5: an error echoes at most 200 characters of the bad value.
func TestLiberalArguments(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	res := a.result("search_docs", map[string]any{"query": "port", "limit": "3"})
	if out := structuredOf(res); res.IsError || len(out["results"].([]any)) > 3 {
		t.Errorf(`"limit":"3": %v`, out)
	}
	res = a.result("add_package", map[string]any{"package": "sdk", "dry_run": "true"})
	if out := structuredOf(res); res.IsError || out["exit_code"] != nil && out["exit_code"] != float64(0) {
		t.Errorf(`"dry_run":"true": %v`, out)
	}
	huge := strings.Repeat("z", 1<<20)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search_docs", map[string]any{"query": "port", "limit": "abc"}, `limit must be a whole number from 1 to 20 (got "abc")`},
		{"search_docs", map[string]any{"query": "port", "limit": 50}, "limit must be a whole number from 1 to 20 (got 50)"},
		{"search_docs", map[string]any{"query": "port", "limit": "3.5"}, "limit must be a whole number from 1 to 20"},
		{"add_package", map[string]any{"package": "sdk", "dry_run": "yes"}, `dry_run must be true or false (got "yes")`},
		{"search_docs", map[string]any{}, "query is required"},
		{"search_docs", map[string]any{"query": huge}, "query must be a string of 1 to 500 characters"},
		{"search_docs", map[string]any{"query": "port", "limit": huge}, "limit must be a whole number from 1 to 20"},
		{"stack_start", map[string]any{"name": map[string]any{"deep": huge}}, "name must be a string"},
		// Issue 24: a real argument in another case is a typo, not a host's
		// own argument to ignore while the call reports success.
		{"stack_create", map[string]any{"name": "app", "Storage": "dir:data"}, `did you mean "storage"?`},
		{"search_docs", map[string]any{"QUERY": "port"}, `did you mean "query"?`},
	} {
		res := a.result(c.tool, c.args)
		out := structuredOf(res)
		msg, _ := out["message"].(string)
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || out["error"] != "usage" || !strings.Contains(msg, c.want) {
			t.Errorf("%s %.80v: want a usage error saying %q, got %.300v", c.tool, c.args, c.want, out)
		}
		if strings.Count(text, "z") > 200 || len(text) > 2048 {
			t.Errorf("%s: the error echoes %d bytes of the value (result %d bytes)", c.tool, strings.Count(text, "z"), len(text))
		}
		for _, internal := range []string{"reflect", "jsonrpc2", "Go struct", "Go value", "validating"} {
			if strings.Contains(msg, internal) {
				t.Errorf("%s: Go internals in %q", c.tool, msg)
			}
		}
	}
}
