package mcpserve

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 11, general defences: 50 calls of every tool at once (slow
// stack_starts among them), then stdin closes: every id is answered
// exactly once, and the process exits 0 with no error line.
func TestFiftyCallsOfEveryTool(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"app"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := serverFor(t, withStandIn(), withEnv("TESTSERVER_READY_DELAY=1s"), inProject(project))
	createStack(t, s.env, "slow")
	p := s.start()
	p.send(initLine, initDone, `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
	p.next()
	var list struct {
		Result struct {
			Tools []struct {
				Name        string `json:"name"`
				InputSchema struct {
					Properties map[string]struct{ Enum []any } `json:"properties"`
				} `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(p.next()), &list); err != nil || len(list.Result.Tools) != 8 {
		t.Fatalf("tools/list: %v", err)
	}
	args := map[string]func(i int) map[string]any{
		"search_docs":  func(int) map[string]any { return map[string]any{"query": "qdrant port", "limit": 2} },
		"loams_info":   func(int) map[string]any { return map[string]any{} },
		"stack_status": func(int) map[string]any { return map[string]any{} },
		"stack_create": func(i int) map[string]any { return map[string]any{"name": fmt.Sprintf("c%d", i), "start": false} },
		"stack_start":  func(int) map[string]any { return map[string]any{"name": "slow"} },
		"env_export":   func(int) map[string]any { return map[string]any{"name": "slow"} },
		"add_package":  func(int) map[string]any { return map[string]any{"package": "sdk", "dry_run": true} },
	}
	for _, tool := range list.Result.Tools {
		if tool.Name == "get_sdk_snippet" {
			props := tool.InputSchema.Properties
			args[tool.Name] = func(int) map[string]any {
				return map[string]any{"engine": props["engine"].Enum[0], "language": props["language"].Enum[0]}
			}
		}
	}
	var batch strings.Builder
	want := map[string]bool{}
	for i := 0; i < 50; i++ {
		for _, tool := range list.Result.Tools {
			id := fmt.Sprintf(`"%s-%d"`, tool.Name, i)
			want[id] = true
			req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": "tools/call",
				"params": map[string]any{"name": tool.Name, "arguments": args[tool.Name](i)}})
			batch.Write(req)
			batch.WriteByte('\n')
		}
	}
	if _, err := p.stdin.Write([]byte(batch.String())); err != nil {
		t.Fatal(err)
	}
	out, code := p.wait()
	got := map[string]int{}
	for _, m := range answers(t, out) {
		got[string(m.ID)]++
		if m.Error != nil {
			t.Errorf("%s: a JSON-RPC error for a valid call: %+v", m.ID, m.Error)
		}
	}
	for id := range want {
		if got[id] != 1 {
			t.Errorf("id %s answered %d times", id, got[id])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d answers for %d calls", len(got), len(want))
	}
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	if errs := errorLines(p.stderr.String()); len(errs) > 0 {
		t.Errorf("error lines:\n%s", strings.Join(errs, "\n"))
	}
	var started int
	for _, l := range out {
		if strings.Contains(l, `"id":"stack_start-`) && strings.Contains(l, `\"state\":\"running\"`) {
			started++
		}
	}
	if started != 50 {
		t.Errorf("want every stack_start to report the stack running, %d did", started)
	}
}
