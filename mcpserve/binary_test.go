package mcpserve

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's own stdio transport exits on bad JSON and drops answers at EOF;
// these are the cases our framing exists for, plus the JSON-RPC basics.
func TestRawLines(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("a", 10<<20)
	huge := strings.Repeat("b", 17<<20)
	input := lines(
		fmt.Sprintf(initLegacy, "2025-06-18"),
		initDone,
		`this is not json`,
		``,
		`   `,
		`{"jsonrpc":"2.0","id":2,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"loams_info","arguments":{"bogus":true}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`,
		`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":{"pad":"`+big+`"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"pad":"`+huge+`"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":8,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":9,"method":"resources/templates/list"}`,
		`{"jsonrpc":"2.0","id":10,"method":"prompts/list"}`,
		`{"id":11}`,
	) + `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"loams_info"}}` // no final newline: stdin closes mid-line
	tr := run(t, input)
	got, out := tr.byID, tr.lines

	errCode := func(id string) int {
		t.Helper()
		m, ok := got[id]
		if !ok || m.Error == nil {
			t.Fatalf("id %s: want a JSON-RPC error, got %+v", id, m)
		}
		return m.Error.Code
	}
	if c := errCode("null"); c != -32700 && c != -32600 {
		t.Errorf("bad JSON: code %d", c)
	}
	var parseErrors, tooLong int
	for _, l := range out {
		parseErrors += strings.Count(l, "-32700")
		if strings.Contains(l, "16 MiB") {
			tooLong++
		}
	}
	if parseErrors != 1 || tooLong != 1 {
		t.Errorf("want one -32700 and one oversized-line error, got %d and %d", parseErrors, tooLong)
	}
	for id, want := range map[string]int{"2": -32601, "3": -32602, "11": -32600} {
		if c := errCode(id); c != want {
			t.Errorf("id %s: code %d, want %d", id, c, want)
		}
	}
	if _, ok := got["6"]; ok {
		t.Error("the oversized request was answered as if it had been read")
	}
	for _, id := range []string{"5", "7", "8", "9", "10", "12"} {
		if m, ok := got[id]; !ok || m.Error != nil {
			t.Errorf("id %s: want a result, got %+v", id, m)
		}
	}
	var extra struct {
		IsError bool                `json:"isError"`
		Meta    map[string][]string `json:"_meta"`
	}
	_ = json.Unmarshal(got["4"].Result, &extra)
	if extra.IsError || len(extra.Meta["loams/ignored_arguments"]) != 1 || extra.Meta["loams/ignored_arguments"][0] != "bogus" {
		t.Errorf("an unknown argument: want a result naming it as ignored, got %s", got["4"].Result)
	}
	// Prompts: an empty list. Resources: the docs (resources_test.go).
	lists := string(got["8"].Result) + string(got["9"].Result) + string(got["10"].Result)
	for _, l := range []string{`"prompts":[]`, `"resources":[{`, `"resourceTemplates":[{`} {
		if !strings.Contains(lists, l) {
			t.Errorf("want %s in the lists", l)
		}
	}
	if len(got) != 12 { // 1..12 minus 6, plus the null-id errors
		t.Logf("messages: %d", len(got))
	}
}

func TestRequestBeforeInitialize(t *testing.T) {
	t.Parallel()
	got := run(t, lines(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)).byID
	if m := got["1"]; m.Error == nil {
		t.Fatalf("tools/list before initialize: want an error, got %s", m.Result)
	}
}

func TestNotificationGetsNoAnswer(t *testing.T) {
	t.Parallel()
	out := run(t, lines(fmt.Sprintf(initLegacy, "2025-11-25"), initDone, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)).lines
	if len(out) != 1 {
		t.Fatalf("want only the initialize answer, got %d lines:\n%s", len(out), strings.Join(out, "\n"))
	}
}

func TestBatch(t *testing.T) {
	t.Parallel()
	out := run(t, lines(
		fmt.Sprintf(initLegacy, "2025-03-26"), initDone,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
	)).lines
	if len(out) != 2 || !strings.HasPrefix(out[1], "[") {
		t.Fatalf("want the initialize answer and one batch answer, got:\n%s", strings.Join(out, "\n"))
	}
	var batch []rpc
	_ = json.Unmarshal([]byte(out[1]), &batch)
	if len(batch) != 2 || string(batch[0].ID) != "2" || string(batch[1].ID) != "3" {
		t.Fatalf("batch answer: %s", out[1])
	}
}

func TestHandshakeVersions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ asked, want string }{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2024-11-05"},
		{"1999-01-01", "2025-11-25"},
	} {
		got := run(t, lines(fmt.Sprintf(initLegacy, tc.asked))).byID
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
			ServerInfo      struct{ Name, Title, Version string }
			Capabilities    map[string]json.RawMessage
		}
		_ = json.Unmarshal(got["1"].Result, &res)
		if res.ProtocolVersion != tc.want {
			t.Errorf("asked %s: answered %q, want %s", tc.asked, res.ProtocolVersion, tc.want)
		}
		if res.ServerInfo.Name != "loams" || res.ServerInfo.Title != "Loams" {
			t.Errorf("serverInfo: %+v", res.ServerInfo)
		}
		if len(res.Capabilities) != 3 || string(res.Capabilities["tools"]) != "{}" || string(res.Capabilities["resources"]) != "{}" ||
			string(res.Capabilities["extensions"]) != `{"io.modelcontextprotocol/skills":{}}` {
			t.Errorf("capabilities must be tools and resources, without listChanged, and the Skills extension: %s", got["1"].Result)
		}
	}
}

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"%s","io.modelcontextprotocol/clientCapabilities":{}}`

func TestStateless(t *testing.T) {
	t.Parallel()
	got := run(t, lines(
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+fmt.Sprintf(meta, "2026-07-28")+`}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{`+fmt.Sprintf(meta, "2026-07-28")+`}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{`+fmt.Sprintf(meta, "2099-01-01")+`}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"loams_info","arguments":{},`+fmt.Sprintf(meta, "2026-07-28")+`}}`,
	)).byID
	var disc struct {
		ResultType        string                           `json:"resultType"`
		SupportedVersions []string                         `json:"supportedVersions"`
		Instructions      string                           `json:"instructions"`
		CacheScope        string                           `json:"cacheScope"`
		Meta              map[string]struct{ Name string } `json:"_meta"`
	}
	_ = json.Unmarshal(got["1"].Result, &disc)
	if disc.ResultType != "complete" || len(disc.SupportedVersions) == 0 || disc.Instructions == "" || disc.CacheScope != "public" ||
		disc.Meta["io.modelcontextprotocol/serverInfo"].Name != "loams" {
		t.Errorf("server/discover: %s", got["1"].Result)
	}
	if !strings.Contains(string(got["2"].Result), `"resultType":"complete"`) || !strings.Contains(string(got["5"].Result), `"resultType":"complete"`) {
		t.Errorf("results must carry resultType: %s", got["2"].Result)
	}
	if e := got["3"].Error; e == nil || e.Code != -32022 || !strings.Contains(string(e.Data), `"requested":"2099-01-01"`) || !strings.Contains(string(e.Data), `"supported"`) {
		t.Errorf("unknown version: %+v", got["3"])
	}
	if e := got["4"].Error; e == nil || e.Code != -32602 {
		t.Errorf("missing client capabilities: %+v", got["4"])
	}
}

// Codex sends _meta.progressToken on old-style requests: _meta alone must
// not switch a request to the stateless revision.
func TestMetaAloneIsOldStyle(t *testing.T) {
	t.Parallel()
	got := run(t, lines(fmt.Sprintf(initLegacy, "2025-06-18"), initDone,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"loams_info","arguments":{},"_meta":{"progressToken":7}}}`)).byID
	if m := got["2"]; m.Error != nil || m.Result == nil || strings.Contains(string(m.Result), "resultType") {
		t.Fatalf("want an old-style result, got %+v %s", m.Error, m.Result)
	}
}

// The go-sdk client is a real client: its default probes server/discover,
// and each forced version takes the initialize handshake.
func TestGoSDKClient(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		t.Run("version="+version, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			client := mcp.NewClient(&mcp.Implementation{Name: "loams-test", Version: "1"}, nil)
			session, err := client.Connect(ctx, &mcp.CommandTransport{Command: serverFor(t).command()}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer session.Close()
			negotiated := session.InitializeResult().ProtocolVersion
			if want := version; want != "" && negotiated != want {
				t.Errorf("negotiated %s, want %s", negotiated, want)
			}
			if version == "" && negotiated < "2026-07-28" {
				t.Errorf("default client should get the stateless revision, got %s", negotiated)
			}
			tools, err := session.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list: %v %v", tools, err)
			}
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "loams_info", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Fatalf("loams_info: %v %+v", err, res)
			}
			var info struct {
				Version      string `json:"version"`
				OutputSchema int    `json:"output_schema"`
			}
			data, _ := json.Marshal(res.StructuredContent)
			if json.Unmarshal(data, &info); info.OutputSchema != 1 || info.Version == "" {
				t.Errorf("loams_info: %s", data)
			}
			extra, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "loams_info", Arguments: map[string]any{"nope": 1}})
			if err != nil || extra.IsError || extra.Meta["loams/ignored_arguments"] == nil {
				t.Errorf("an unknown argument: want a result naming it as ignored, got %v %+v", err, extra)
			}
			bad, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "stack_status", Arguments: map[string]any{"name": 5}})
			if err != nil || !bad.IsError {
				t.Errorf("bad arguments: want an isError result, got %v %+v", err, bad)
			}
		})
	}
}

func TestSIGTERMExitsCleanly(t *testing.T) {
	t.Parallel()
	p := startServer(t)
	p.send(initLine)
	if line := p.next(); !strings.Contains(line, `"id":1`) {
		t.Fatalf("initialize: %s", line)
	}
	p.kill(syscall.SIGTERM)
	if _, code := p.waitExit(); code != 0 {
		t.Fatalf("after SIGTERM: exit %d, want 0; stderr:\n%s", code, p.stderr.String())
	}
}

// Issue 30: a second initialize on one connection (Copilot CLI retries
// after ~1.7 s; tunnels send discover, initialize, initialize, even
// back to back) gets the first one's result, and the session goes on.
func TestRepeatedInitialize(t *testing.T) {
	t.Parallel()
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	tr := run(t, lines(
		`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{`+meta+`}}`,
		fmt.Sprintf(initLegacy, "2025-11-25"),
		strings.Replace(fmt.Sprintf(initLegacy, "2025-11-25"), `"id":1`, `"id":2`, 1),
		initDone,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"loams_info","arguments":{}}}`,
		strings.Replace(fmt.Sprintf(initLegacy, "2025-06-18"), `"id":1`, `"id":4`, 1),
		`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`,
	))
	first := string(tr.byID["1"].Result)
	if !strings.Contains(first, `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize: %+v", tr.byID["1"])
	}
	for _, id := range []string{"2", "4"} {
		if got := string(tr.byID[id].Result); got != first {
			t.Errorf("initialize %s: want the first one's result, got %s %+v", id, got, tr.byID[id].Error)
		}
	}
	for _, id := range []string{`"d"`, "3", "5"} {
		if tr.byID[id].Result == nil {
			t.Errorf("id %s: the session did not go on: %+v", id, tr.byID[id].Error)
		}
	}
}
