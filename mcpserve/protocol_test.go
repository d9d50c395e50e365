package mcpserve_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 11, defect 4: every error has a JSON-RPC code (never 0) and a
// message without Go internals.
func TestErrorCodes(t *testing.T) {
	t.Parallel()
	m26 := fmt.Sprintf(meta, "2026-07-28")
	cases := []struct {
		line string
		code int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"loams_info"}}`, -32602},                                                // no session, no _meta
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"` + "io.modelcontextprotocol/protocolVersion" + `":2026}}}`, -32602}, // version as a number
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}`, -32602},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":null}}`, -32602},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[1]}`, -32602},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/list","params":"x"}`, -32602},
		{`{"jsonrpc":"2.0","id":7,"method":"server/discover","params":{` + fmt.Sprintf(meta, "1999-01-01") + `}}`, -32022},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5,` + m26 + `}}`, -32602},
		{`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"no_such_tool",` + m26 + `}}`, -32602},
		{`{"jsonrpc":"2.0","id":10,"method":"no/such","params":{` + m26 + `}}`, -32601},
		{`{"jsonrpc":"2.0","id":11,"method":"initialize","params":{"protocolVersion":5}}`, -32602},
		{`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"` + strings.Repeat("n", 1<<20) + `",` + m26 + `}}`, -32602},
	}
	var in []string
	for _, c := range cases {
		in = append(in, c.line)
	}
	out, _ := runLines(t, lines(in...))
	byID := map[string]rpc{}
	for _, m := range answers(t, out) {
		byID[string(m.ID)] = m
	}
	for i, c := range cases {
		m, ok := byID[fmt.Sprint(i+1)]
		if !ok || m.Error == nil || m.Error.Code != c.code {
			t.Errorf("case %d: want code %d, got %+v", i+1, c.code, m.Error)
			continue
		}
		if internals := []string{"jsonrpc2", "mcp.", "Go struct", "Go value", "reflect", "unmarshal"}; containsAny(m.Error.Message, internals) {
			t.Errorf("case %d: Go internals in %q", i+1, m.Error.Message)
		}
		if len(m.Error.Message) > 400 {
			t.Errorf("case %d: a %d-byte message echoes the input", i+1, len(m.Error.Message))
		}
	}
	var data struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	if json.Unmarshal(byID["7"].Error.Data, &data); data.Requested != "1999-01-01" || len(data.Supported) == 0 {
		t.Errorf("server/discover at an unsupported version: data %s", byID["7"].Error.Data)
	}
	for _, l := range out {
		if strings.Contains(l, `"code":0`) {
			t.Errorf("code 0: %.200s", l)
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// Issue 11, defect 4: a client that asks server/discover (and makes a
// stateless call) and then chooses the old handshake must get a session.
func TestInitializeAfterDiscover(t *testing.T) {
	t.Parallel()
	m26 := fmt.Sprintf(meta, "2026-07-28")
	out, stderr := runLines(t, lines(
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+m26+`}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{`+m26+`}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		initDone,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
	))
	byID := map[string]rpc{}
	for _, m := range answers(t, out) {
		byID[string(m.ID)] = m
	}
	for _, id := range []string{"1", "2", "3", "4"} {
		if byID[id].Error != nil || byID[id].Result == nil {
			t.Errorf("id %s: want a result, got %+v", id, byID[id].Error)
		}
	}
	if !strings.Contains(string(byID["3"].Result), `"protocolVersion":"2025-06-18"`) {
		t.Errorf("initialize: %s", byID["3"].Result)
	}
	if e := byID["5"].Error; e == nil || e.Code != -32600 {
		t.Errorf("a second initialize: want -32600, got %+v", e)
	}
	if errs := errorLines(stderr); len(errs) > 0 {
		t.Errorf("a client's duplicate initialize is not a server error:\n%s", strings.Join(errs, "\n"))
	}
}

// Issue 13: under 2026-07-28 the lists are cacheable for a day; under the
// older revisions no ttlMs or cacheScope appears.
func TestListCacheFields(t *testing.T) {
	t.Parallel()
	m26 := fmt.Sprintf(meta, "2026-07-28")
	out, _ := runLines(t, lines(
		`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{`+m26+`}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{`+m26+`}}`,
		initLine, initDone,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`,
	))
	byID := map[string]rpc{}
	for _, m := range answers(t, out) {
		byID[string(m.ID)] = m
	}
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
	env, home := serveEnv(t)
	p := startServe(t, env)
	p.send(initLine, initDone,
		`{"jsonrpc":"2.0","id":2,"method":"ping","params":{`+fmt.Sprintf(meta, "2026-07-28")+`}}`,
		strings.Replace(initLine, `"id":1`, `"id":9`, 1),
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"stack_status","arguments":{"name":"argument-marker-7731"}}}`,
	)
	out, code := p.wait(20 * time.Second)
	if code != 0 || len(out) != 4 {
		t.Fatalf("exit %d, %d answers:\n%s", code, len(out), strings.Join(out, "\n"))
	}
	if errs := errorLines(p.stderr.String()); len(errs) > 0 {
		t.Errorf("no ERROR lines for EOF, ping or a duplicate initialize:\n%s", strings.Join(errs, "\n"))
	}
	data, err := os.ReadFile(filepath.Join(home, "logs", "mcp.log"))
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
	env, home := serveEnv(t)
	p := startServe(t, env)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"copilot-cli","version":"1.0.102"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+fmt.Sprintf(meta, "2026-07-28")+`}}`)
	if out, code := p.wait(20 * time.Second); code != 0 || len(out) != 2 {
		t.Fatalf("exit %d, %d answers:\n%s", code, len(out), strings.Join(out, "\n"))
	}
	data, err := os.ReadFile(filepath.Join(home, "logs", "mcp.log"))
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
