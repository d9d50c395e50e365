package mcpserve

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/testkit/testbin"
)

// agent is a go-sdk client session with `loams mcp serve` in a temp home
// and project, the stand-in as the server binary.
type agent struct {
	t       *testing.T
	session *mcp.ClientSession
	project string
	home    string
}

func newAgent(t *testing.T, extraEnv ...string) *agent {
	t.Helper()
	return newAgentWith(t, nil, extraEnv...)
}

// newAgentWith starts `loams mcp serve` with serveArgs after it.
func newAgentWith(t *testing.T, serveArgs []string, extraEnv ...string) *agent {
	t.Helper()
	a := &agent{t: t, project: t.TempDir()}
	if err := os.WriteFile(filepath.Join(a.project, "package.json"), []byte(`{"name":"app"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	setup := serverFor(t, withStandIn(), inProject(a.project), withArgs(serveArgs...), withEnv(extraEnv...))
	a.home = setup.home
	cmd := setup.command()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	s, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.session = s
	t.Cleanup(func() {
		s.Close()
		stopStack(t, setup.env, "app")
	})
	return a
}

// call returns the structured result and whether it is an error.
func (a *agent) call(name string, args map[string]any) (map[string]any, bool) {
	a.t.Helper()
	res, err := a.session.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	data, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(data, &out)
	text := res.Content[0].(*mcp.TextContent).Text
	switch {
	case name == "search_docs" && !res.IsError: // Markdown for the model (TestSearchDocsText)
		if !strings.Contains(text, "Loams docs") {
			a.t.Errorf("search_docs: the text block is not the Markdown rendering: %.200s", text)
		}
	case !jsonEqual(text, string(data)):
		a.t.Errorf("%s: text content differs from structuredContent", name)
	case strings.Contains(text, " ") && !strings.HasPrefix(text, "{"), strings.Contains(text, "\n  "):
		a.t.Errorf("%s: the text block is not compact JSON: %.200s", name, text)
	}
	return out, res.IsError
}

func TestStackAndEnvTools(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	if out, _ := a.call("loams_info", nil); out["server"] == nil || out["server"].(map[string]any)["version"] != "0.0.1" {
		t.Errorf("loams_info must report the server binary it found: %v", out["server"])
	}
	if out, isErr := a.call("stack_status", nil); isErr || len(out["stacks"].([]any)) != 0 {
		t.Fatalf("stack_status on an empty home: %v", out)
	}
	if out, isErr := a.call("stack_start", map[string]any{"name": "app"}); !isErr || out["error"] != "stack_not_found" {
		t.Errorf("stack_start of a missing stack: %v", out)
	}
	out, isErr := a.call("stack_create", map[string]any{"name": "app", "engines": []string{"qdrant"}})
	if isErr || out["state"] != "running" {
		t.Fatalf("stack_create: %v", out)
	}
	if out, isErr := a.call("stack_create", map[string]any{"name": "app"}); !isErr || out["error"] != "stack_exists" {
		t.Errorf("second stack_create: %v", out)
	}
	if out, isErr := a.call("stack_create", map[string]any{"name": "x", "storage": "s3://bucket"}); !isErr || out["error"] != "usage" {
		t.Errorf("object storage: %v", out)
	}
	if out, isErr := a.call("stack_start", map[string]any{"name": "app"}); isErr || out["state"] != "running" {
		t.Errorf("stack_start of a running stack: %v", out)
	}
	out, isErr = a.call("env_export", map[string]any{"name": "app"})
	if isErr {
		t.Fatalf("env_export: %v", out)
	}
	path := filepath.Join(a.project, ".env.loams")
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf(".env.loams: %v %v", err, fi)
	}
	body, _ := os.ReadFile(path)
	values := out["values"].(map[string]any)
	if !strings.HasPrefix(values["LOAMS_API_KEY"].(string), "<redacted") || !strings.Contains(string(body), "LOAMS_API_KEY=loams_") {
		t.Errorf("the key must be in the file and redacted in the result: %v", values)
	}
	if values["QDRANT_URL"] == nil || strings.Contains(mustJSON(out), "loams_") && !strings.Contains(mustJSON(out), "<redacted") {
		t.Errorf("env_export values: %v", values)
	}
	for _, bad := range []map[string]any{{"path": "../outside.env"}, {"path": "/etc/.env"}, {"path": "notenv"}, {"merge_into": "../../.env"}} {
		bad["name"] = "app"
		if out, isErr := a.call("env_export", bad); !isErr || (out["error"] != "path_outside_project" && out["error"] != "usage") {
			t.Errorf("env_export %v: want a refusal, got %v", bad, out)
		}
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestAddPackageTool(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	record := filepath.Join(t.TempDir(), "argv")
	fake := "#!/bin/sh\necho \"$@\" > " + record + "\necho added 1 package\n"
	if err := testbin.WriteExecutable(filepath.Join(bin, "npm"), []byte(fake)); err != nil {
		t.Fatal(err)
	}
	a := newAgent(t, "PATH="+bin+":"+os.Getenv("PATH"))
	out, isErr := a.call("add_package", map[string]any{"package": "sdk", "dry_run": true})
	if isErr || out["package_manager"] != "npm" || !strings.Contains(mustJSON(out["command"]), "@loams/client") {
		t.Fatalf("dry run: %v", out)
	}
	if _, err := os.Stat(record); err == nil {
		t.Fatal("a dry run ran the package manager")
	}
	if out, isErr := a.call("add_package", map[string]any{"package": "left-pad"}); !isErr || out["error"] != "package_not_allowed" {
		t.Errorf("left-pad: %v", out)
	}
	out, isErr = a.call("add_package", map[string]any{"package": "sdk"})
	if isErr || out["exit_code"] != float64(0) || !strings.Contains(out["output_tail"].(string), "added 1 package") {
		t.Fatalf("real run: %v", out)
	}
	if argv, _ := os.ReadFile(record); !strings.Contains(string(argv), "install @loams/client") {
		t.Errorf("npm got %q", argv)
	}
}

// Issue 22: search_docs' text block is the sections as Markdown, each
// under a header naming its resource URIs; the JSON stays in
// structuredContent. No HTML escaping anywhere in the answer. Issue 30:
// the header names the page's URI (every host reads it) beside the
// section's, and structuredContent is no heavier than the text (at most
// 1.1x), each section once, no field a model cannot use.
func TestSearchDocsText(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	for _, q := range []string{"connect to qdrant from python", "qdrant port", "LOAMS_API_KEY"} {
		res := a.result("search_docs", map[string]any{"query": q})
		text := res.Content[0].(*mcp.TextContent).Text
		out := structuredOf(res)
		first := out["results"].([]any)[0].(map[string]any)
		header := "=== " + first["section"].(string) + "\npage " + first["page_uri"].(string) + " section " + first["uri"].(string) + "\n"
		if !strings.Contains(text, header) || !strings.Contains(text, header+first["content"].(string)) {
			t.Errorf("%s: the first section must follow its header whole:\n%.600s", q, text)
		}
		if strings.Contains(text, `\n`) || strings.Contains(text, `\u003c`) {
			t.Errorf("%s: the text block must be plain Markdown, not JSON-escaped:\n%.600s", q, text)
		}
		data, _ := json.Marshal(res.StructuredContent)
		if float64(len(data)) > 1.1*float64(len(text)) {
			t.Errorf("%s: structuredContent is %d bytes, the text %d: more than 1.1x", q, len(data), len(text))
		}
		for _, r := range out["results"].([]any) {
			for k := range r.(map[string]any) {
				if !slices.Contains([]string{"section", "page_uri", "uri", "content", "excerpt", "truncated"}, k) {
					t.Errorf("%s: a result carries %q", q, k)
				}
			}
		}
	}
	if text := a.result("search_docs", map[string]any{"query": "connect to qdrant from python"}).Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "```python\n") {
		t.Errorf("the code fence must be intact:\n%.600s", text)
	}
	res := a.result("search_docs", map[string]any{"query": "zzzqqq"})
	if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.HasPrefix(text, "No Loams docs section matched") {
		t.Errorf("no match: %q", text)
	}
}
