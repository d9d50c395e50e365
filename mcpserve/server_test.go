package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/home"
)

// withTools runs the server in process with test-only tools beside the
// eight.
func withTools(extra ...tool) serverOption {
	return inProcess(func(o *Options) { o.extraTools = extra })
}

// A tool call that blocks (stack_start waiting for readiness) must not
// delay requests sent after it.
func TestConcurrentRequests(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	type none struct{}
	blocker := newTool(toolSpec[none, none]{
		Name: "test_block", Title: "Block", Description: "Blocks until released.",
		Run: func(ctx context.Context, _ none) (none, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return none{}, nil
		},
	})
	p := startServer(t, withTools(blocker))
	p.send(initLine, initDone,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_block","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	p.next()
	if first := p.next(); !strings.Contains(first, `"id":3`) {
		t.Fatalf("tools/list waited for the blocked call; first answer: %.200s", first)
	}
	close(release)
	if second := p.next(); !strings.Contains(second, `"id":2`) {
		t.Fatalf("blocked call: %.200s", second)
	}
}

// The tools/list snapshot freezes names, descriptions and schemas: a change
// must be deliberate (LOAMS_UPDATE_GOLDEN=1 rewrites it) and stays small,
// because agents pay for it in every session.
func TestGoldenToolsList(t *testing.T) {
	t.Parallel()
	p := startServer(t, inProcess(nil))
	p.send(initLine, initDone, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	p.next()
	var resp struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	line := p.next()
	if err := json.Unmarshal([]byte(line), &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Result.Tools) != 8 {
		t.Errorf("want the eight tools of the spec, got %d", len(resp.Result.Tools))
	}
	compact, _ := json.Marshal(map[string]any{"tools": resp.Result.Tools})
	// What a model reads is the names, descriptions and input schemas:
	// hosts hand it those, and keep output schemas for validating results.
	var forModel []map[string]any
	for _, raw := range resp.Result.Tools {
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		delete(m, "outputSchema")
		delete(m, "_meta") // search hints: the host's tool search reads them, not the model
		forModel = append(forModel, m)
	}
	modelBytes, _ := json.Marshal(map[string]any{"tools": forModel})
	if len(modelBytes) >= 6<<10 {
		t.Errorf("tools/list without output schemas is %d bytes of JSON; keep it under 6 KiB", len(modelBytes))
	}
	t.Logf("tools/list: %d bytes for the model (without output schemas)", len(modelBytes))
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, compact, "", "  ")
	pretty.WriteByte('\n')
	golden := filepath.Join("testdata", "tools-list.json")
	if os.Getenv("LOAMS_UPDATE_GOLDEN") != "" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (LOAMS_UPDATE_GOLDEN=1 go test ./mcpserve -run Golden writes it)", err)
	}
	if !bytes.Equal(want, pretty.Bytes()) {
		t.Errorf("tools/list differs from %s; if the change is deliberate, rerun with LOAMS_UPDATE_GOLDEN=1\n got: %s", golden, pretty.String())
	}
	t.Logf("tools/list: %d tools, %d bytes", len(resp.Result.Tools), len(compact))
}

// Every tool declares all four annotations and an open input schema with a
// description on every property.
func TestToolDefinitions(t *testing.T) {
	t.Parallel()
	srv, closeLog := New(Options{Home: home.Home{Dir: t.TempDir()}, Getenv: func(string) string { return "" }})
	defer closeLog()
	for _, def := range srv.Tools() {
		if def.Annotations == nil || def.Title == "" || def.Description == "" || len(def.Description) > 450 {
			t.Errorf("%s: needs a title, annotations and a description of at most ~400 characters", def.Name)
		}
		data, _ := json.Marshal(def.InputSchema)
		var schema struct {
			AdditionalProperties *bool `json:"additionalProperties"`
			Properties           map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		_ = json.Unmarshal(data, &schema)
		if schema.AdditionalProperties != nil && !*schema.AdditionalProperties {
			t.Errorf("%s: input schema must allow extra properties (hosts check it before sending): %s", def.Name, data)
		}
		a := def.Annotations
		if a == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil || a.ReadOnlyHint && (*a.DestructiveHint || !a.IdempotentHint) {
			t.Errorf("%s: set all four hints, consistently: %+v", def.Name, a)
		}
		for name, p := range schema.Properties {
			if p.Description == "" {
				t.Errorf("%s.%s: property without a description", def.Name, name)
			}
		}
	}
}

type manyItems struct {
	Items     []string `json:"items"`
	Truncated bool     `json:"truncated"`
}

func (m *manyItems) Truncate() bool {
	if len(m.Items) == 0 {
		return false
	}
	m.Items = m.Items[:len(m.Items)/2]
	m.Truncated = true
	return true
}

func TestResultCap(t *testing.T) {
	t.Parallel()
	big := &manyItems{}
	for range 2000 {
		big.Items = append(big.Items, strings.Repeat("x", 100))
	}
	res := success(big)
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError || len(text) > resultCap || !strings.Contains(text, `"truncated":true`) {
		t.Fatalf("want a truncated result under %d bytes, got %d bytes, isError=%v", resultCap, len(text), res.IsError)
	}
	if res := success(map[string]string{"big": strings.Repeat("y", resultCap)}); !res.IsError {
		t.Fatal("a result that cannot shrink must be refused, not sent")
	}
}
