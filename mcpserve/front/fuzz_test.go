package front

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// fuzzSeeds are the cases of issue 11 and the spec's JSON-RPC rules, line
// by line; the fuzzer mutates and recombines them.
func fuzzSeeds() []string {
	const (
		init25 = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`
		inited = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
		meta26 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
		list   = `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`
	)
	return []string{
		init25 + "\n" + inited + "\n[" + list + "," + list + "]\n",
		init25 + "\n" + `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":7}` + "\n",
		init25 + "\n" + inited + "\n" + `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo"}}` + "\n" + `{"jsonrpc":"2.0","id":"a","method":"ping"}` + "\n",
		init25 + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hold","arguments":{"name":"x"}}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}` + "\n",
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}` + "\n",
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":2026}}}` + "\n",
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n",
		`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":null}}` + "\n" + `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[1]}` + "\n" + `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":"x"}` + "\n",
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta26 + `}}` + "\n" + init25 + "\n",
		`{"jsonrpc":"2.0","id":8,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n",
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"port","limit":"3","wait_for_previous":true},` + meta26 + `}}` + "\n",
		`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("q", 4096) + `"},` + meta26 + `}}` + "\n",
		`{"jsonrpc":"2.0","id":11,"method":"ping","params":{` + meta26 + `}}` + "\n" + init25 + "\n" + init25 + "\n",
		"not json\n\n[]\n[1]\n\"x\"\n{}\n",
		init25 + "\n" + `{"jsonrpc":"2.0","id":12,"method":"initialize","params":{"protocolVersion":5}}` + "\n",
		init25 + "\n" + `[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]` + "\n",
	}
}

// FuzzFraming feeds arbitrary input to the front before an SDK server and
// checks the rules of mcp.md "JSON-RPC, exactly": the front is done after
// EOF, every stdout line is one JSON-RPC message or batch, no error has
// code 0, and every id of a request is answered at least once and never
// more often than it was sent, byte for byte.
func FuzzFraming(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		out := run(t, string(input))
		checkAnswers(t, input, strings.Join(out, "\n"))
	})
}

// checkAnswers holds the output against the input, parsed independently.
func checkAnswers(t *testing.T, input []byte, output string) {
	sent, owed := map[string]int{}, map[string]bool{}
	cancels := bytes.Contains(input, []byte("notifications/cancelled"))
	for _, line := range bytes.Split(input, []byte("\n")) {
		for _, m := range messagesOf(bytes.TrimSpace(line)) {
			id, ok := m["id"]
			if !ok || !validID(id) {
				continue
			}
			sent[string(id)]++
			var method string
			if json.Unmarshal(m["method"], &method) == nil && method != "" {
				owed[string(id)] = true
			}
		}
	}
	answered := map[string]int{}
	for _, line := range strings.Split(strings.TrimSuffix(output, "\n"), "\n") {
		if line == "" {
			continue
		}
		if !json.Valid([]byte(line)) {
			t.Fatalf("stdout line is not JSON: %.300s", line)
		}
		msgs := messagesOf([]byte(line))
		if len(msgs) == 0 {
			t.Fatalf("stdout line is not a message or a batch: %.300s", line)
		}
		for _, m := range msgs {
			if string(m["jsonrpc"]) != `"2.0"` {
				t.Fatalf("not JSON-RPC 2.0: %.300s", line)
			}
			var e struct {
				Code *int64 `json:"code"`
			}
			if raw, ok := m["error"]; ok {
				if json.Unmarshal(raw, &e) != nil || e.Code == nil || *e.Code == 0 {
					t.Fatalf("an error without a JSON-RPC code: %.300s", line)
				}
			}
			if id := string(m["id"]); id != "null" && id != "" {
				answered[id]++
			}
		}
	}
	for id, n := range answered {
		if n > sent[id] {
			t.Fatalf("id %.100s answered %d times, sent %d times", id, n, sent[id])
		}
	}
	if !cancels {
		for id := range owed {
			if answered[id] == 0 {
				t.Fatalf("id %.100s never answered\ninput:\n%.2000s\noutput:\n%.2000s", id, input, output)
			}
		}
	}
}

// messagesOf returns the objects of a line: one, a batch's, or none.
func messagesOf(line []byte) []map[string]json.RawMessage {
	var one map[string]json.RawMessage
	if json.Unmarshal(line, &one) == nil && one != nil {
		return []map[string]json.RawMessage{one}
	}
	var raws []json.RawMessage
	if json.Unmarshal(line, &raws) != nil {
		return nil
	}
	var out []map[string]json.RawMessage
	for _, r := range raws {
		var m map[string]json.RawMessage
		if json.Unmarshal(r, &m) == nil && m != nil {
			out = append(out, m)
		}
	}
	return out
}

func validID(id json.RawMessage) bool {
	_, err := idKey(id)
	return err == nil
}
