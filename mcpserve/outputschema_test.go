package mcpserve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// Every tool's structuredContent validates against its outputSchema, on
// success and on failure, over the real server.
func TestEveryToolOutputValidates(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "pyproject.toml"), []byte("[project]\nname = \"app\"\nversion = \"0.1.0\"\n"), 0o644)
	s := startSession(t, project)
	s.request("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "t", "version": "1"}})
	list := s.request("tools/list", nil)
	schemas := map[string]*jsonschema.Resolved{}
	for _, raw := range list["tools"].([]any) {
		tl := raw.(map[string]any)
		data, _ := json.Marshal(tl["outputSchema"])
		var sc jsonschema.Schema
		if err := json.Unmarshal(data, &sc); err != nil || sc.Type != "object" {
			t.Fatalf("%s: outputSchema %s: %v", tl["name"], data, err)
		}
		resolved, err := sc.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tl["name"], err)
		}
		schemas[tl["name"].(string)] = resolved
	}
	// The schemas check something: a result of the wrong shape fails.
	if err := schemas["search_docs"].Validate(map[string]any{"docs_version": "x", "results": "none"}); err == nil {
		t.Fatal("search_docs' outputSchema accepts results that are not a list")
	}
	calls := []struct {
		tool    string
		args    map[string]any
		isError bool
	}{
		{"search_docs", map[string]any{"query": "connect to qdrant from python"}, false},
		{"search_docs", map[string]any{"query": "zzzqqqxxx"}, false}, // nothing matched: a hint, no results
		{"search_docs", map[string]any{"query": ""}, true},
		{"get_sdk_snippet", map[string]any{"engine": "qdrant", "language": "python"}, false},
		{"get_sdk_snippet", map[string]any{"engine": "qdrant", "language": "python", "task": "sql"}, true},
		{"get_sdk_snippet", map[string]any{"engine": "qdrant", "language": "cobol"}, true},
		{"loams_info", nil, false},
		{"stack_status", nil, false},
		{"stack_status", map[string]any{"name": "Not A Name"}, true},
		{"stack_start", map[string]any{"name": "app"}, true}, // no such stack yet
		{"stack_create", map[string]any{"name": "app", "engines": []string{"qdrant"}}, false},
		{"stack_create", map[string]any{"name": "app"}, true}, // exists
		{"stack_start", map[string]any{"name": "app"}, false},
		{"stack_status", map[string]any{"name": "app"}, false},
		{"env_export", map[string]any{"name": "app"}, false},
		{"env_export", map[string]any{"name": "app", "path": "../outside.env"}, true},
		{"add_package", map[string]any{"package": "sdk", "dry_run": true}, false},
		{"add_package", map[string]any{"package": "left-pad"}, true},
	}
	tested := map[string][2]bool{}
	for _, c := range calls {
		res := s.request("tools/call", map[string]any{"name": c.tool, "arguments": c.args})
		if c.tool == "stack_create" && !c.isError {
			if sc, _ := res["structuredContent"].(map[string]any); sc["error"] == "port_in_use" {
				for try := 0; try < 5; try++ { // another test's stack took the port: start it again
					if r := s.request("tools/call", map[string]any{"name": "stack_start", "arguments": map[string]any{"name": "app"}}); r["isError"] != true {
						break
					}
				}
				continue
			}
		}
		isError, _ := res["isError"].(bool)
		if isError != c.isError {
			t.Errorf("%s %v: isError=%v, want %v: %v", c.tool, c.args, isError, c.isError, res["structuredContent"])
		}
		if err := schemas[c.tool].Validate(res["structuredContent"]); err != nil {
			t.Errorf("%s %v (isError %v): structuredContent does not validate: %v\n%v", c.tool, c.args, isError, err, res["structuredContent"])
		}
		seen := tested[c.tool]
		if isError {
			seen[1] = true
		} else {
			seen[0] = true
		}
		tested[c.tool] = seen
	}
	for name := range schemas {
		if seen := tested[name]; !seen[0] || !seen[1] && name != "loams_info" { // loams_info takes nothing that can fail
			t.Errorf("%s: success tested %v, failure tested %v", name, seen[0], seen[1])
		}
	}
}
