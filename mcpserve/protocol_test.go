package mcpserve

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 13: under 2026-07-28 the lists are cacheable for a day; under the
// older revisions no ttlMs or cacheScope appears.
func TestListCacheFields(t *testing.T) {
	t.Parallel()
	m26 := fmt.Sprintf(meta, "2026-07-28")
	byID := run(t, lines(
		`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{`+m26+`}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{`+m26+`}}`,
		initLine, initDone,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`,
	), withStandIn()).byID
	for _, id := range []string{`"d"`, "2"} {
		var c struct {
			TTLMs      int    `json:"ttlMs"`
			CacheScope string `json:"cacheScope"`
		}
		if json.Unmarshal(byID[id].Result, &c); c.TTLMs != 86400000 || c.CacheScope != "public" {
			t.Errorf("id %s (2026-07-28): want ttlMs one day and cacheScope public, got %+v", id, c)
		}
	}
	for _, id := range []string{"3", "4", "5"} {
		if r := string(byID[id].Result); r == "" || strings.Contains(r, "ttlMs") || strings.Contains(r, "cacheScope") {
			t.Errorf("id %s (2025-11-25): want no cache fields, got %.200s", id, r)
		}
	}
}

// Issue 11, defect 7: EOF, 2026-07-28 ping and a duplicate initialize
// write no ERROR line; mcp.log names method, tool, duration and outcome of
// every request and never an argument.
func TestLogging(t *testing.T) {
	t.Parallel()
	p := startServer(t, withStandIn())
	p.send(initLine, initDone,
		`{"jsonrpc":"2.0","id":2,"method":"ping","params":{`+fmt.Sprintf(meta, "2026-07-28")+`}}`,
		strings.Replace(initLine, `"id":1`, `"id":9`, 1),
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"stack_status","arguments":{"name":"argument-marker-7731"}}}`,
	)
	out, code := p.wait()
	if code != 0 || len(out) != 4 {
		t.Fatalf("exit %d, %d answers:\n%s", code, len(out), strings.Join(out, "\n"))
	}
	if errs := errorLines(p.stderr.String()); len(errs) > 0 {
		t.Errorf("no ERROR lines for EOF, ping or a duplicate initialize:\n%s", strings.Join(errs, "\n"))
	}
	data, err := os.ReadFile(filepath.Join(p.home, "logs", "mcp.log"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	if strings.Contains(log, "argument-marker-7731") {
		t.Error("mcp.log holds an argument value")
	}
	var sawTool, sawClient bool
	for _, l := range strings.Split(log, "\n") {
		var rec struct {
			Msg, Method, Tool, Outcome string
			Duration                   *int `json:"duration_ms"`
			Client, Protocol           string
		}
		if json.Unmarshal([]byte(l), &rec) != nil || rec.Msg != "request" {
			continue
		}
		if rec.Method == "" || rec.Outcome == "" || rec.Duration == nil {
			t.Errorf("request line without method, outcome or duration: %s", l)
		}
		if rec.Method == "tools/call" && rec.Tool == "stack_status" && rec.Outcome != "" {
			sawTool = true
		}
		// initialize names the client and the revision it asked for
		// (scripts/interop compares them with the hosts' registry).
		if rec.Method == "initialize" && rec.Client == "test 1" && rec.Protocol == "2025-11-25" {
			sawClient = true
		}
		if rec.Method != "initialize" && (rec.Client != "" || rec.Protocol != "") {
			t.Errorf("client named on a %s line: %s", rec.Method, l)
		}
	}
	if !sawTool || !sawClient {
		t.Errorf("mcp.log lacks the stack_status call (%v) or initialize's client (%v):\n%s", sawTool, sawClient, log)
	}
}

// Under 2026-07-28 there is no initialize: server/discover's _meta names
// the client, and that is what mcp.log records (no other line does).
func TestLoggingNamesADiscoveringClient(t *testing.T) {
	t.Parallel()
	p := startServer(t, withStandIn())
	p.send(`{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"copilot-cli","version":"1.0.102"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+fmt.Sprintf(meta, "2026-07-28")+`}}`)
	if out, code := p.wait(); code != 0 || len(out) != 2 {
		t.Fatalf("exit %d, %d answers:\n%s", code, len(out), strings.Join(out, "\n"))
	}
	data, err := os.ReadFile(filepath.Join(p.home, "logs", "mcp.log"))
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, l := range strings.Split(string(data), "\n") {
		var rec struct{ Msg, Method, Outcome, Client, Protocol string }
		if json.Unmarshal([]byte(l), &rec) == nil && rec.Client != "" {
			named = append(named, rec.Method+" "+rec.Outcome+" "+rec.Client+" "+rec.Protocol)
		}
	}
	if len(named) != 1 || named[0] != "server/discover ok copilot-cli 1.0.102 2026-07-28" {
		t.Fatalf("lines naming a client: %q in\n%s", named, data)
	}
}
