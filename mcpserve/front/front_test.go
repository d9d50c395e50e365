package front

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// Issue 11, defect 1: a batch of two requests with one id was never
// answered and the server never exited on EOF.
func TestBatchWithDuplicateIDs(t *testing.T) {
	t.Parallel()
	r := `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`
	out := run(t, lines(initLine, initDone, "["+r+","+r+"]"))
	if len(out) != 2 || !strings.HasPrefix(out[1], "[") {
		t.Fatalf("want the initialize answer and one batch answer, got:\n%s", strings.Join(out, "\n"))
	}
	got := answers(t, out[1:])
	if len(got) != 2 || string(got[0].ID) != "5" || string(got[1].ID) != "5" {
		t.Fatalf("both members answered with their id: %s", out[1])
	}
	results, refused := 0, 0
	for _, m := range got {
		switch {
		case m.Result != nil:
			results++
		case m.Error != nil && m.Error.Code == -32600:
			refused++
		}
	}
	if results != 1 || refused != 1 {
		t.Errorf("want one result and one -32600, got %s", out[1])
	}
}

// Issue 11, defect 1: ids come back as sent: beyond 2^53, negative,
// strings with escapes; never rounded or wrapped to int64's minimum.
func TestIDsEchoedByteForByte(t *testing.T) {
	t.Parallel()
	ids := []string{`123456789012345678901234567890`, `9007199254740993`, `-42`, `0`, `"abc"`, `"\u0041b"`, `""`}
	in := []string{initLine, initDone}
	for _, id := range ids {
		in = append(in, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
	}
	joined := strings.Join(run(t, lines(in...)), "\n")
	for _, id := range ids {
		if n := strings.Count(joined, `"id":`+id+`,`); n != 1 {
			t.Errorf("id %s: echoed %d times, want once byte for byte\n%s", id, n, joined)
		}
	}
	if strings.Contains(joined, "-9223372036854775808") || strings.Contains(joined, "9007199254740992") {
		t.Errorf("an id was rounded:\n%s", joined)
	}
}

// Issue 11, defect 1: id null, a fractional id and a message without a
// method are invalid requests (-32600), not answered as something else.
func TestInvalidRequests(t *testing.T) {
	t.Parallel()
	out := run(t, lines(initLine, initDone,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":7}`,
		`{"jsonrpc":"1.0","id":8,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9,"method":""}`,
		`[]`, `[1]`, `"text"`,
	))
	var got []rpc
	for _, m := range answers(t, out) {
		if string(m.ID) != "1" { // initialize's answer
			got = append(got, m)
		}
	}
	nulls := 0
	for _, m := range got {
		if m.Error == nil || m.Error.Code != -32600 {
			t.Errorf("want -32600, got %+v", m)
			continue
		}
		if string(m.ID) == "null" {
			nulls++
		}
	}
	if len(got) != 11 || nulls != 8 {
		t.Errorf("want 11 answers, 8 of them with id null; got %d, %d:\n%s", len(got), nulls, strings.Join(out, "\n"))
	}
	for _, id := range []string{"7", "8", "9"} {
		if !strings.Contains(strings.Join(out, "\n"), `"id":`+id+`,"error":{"code":-32600`) {
			t.Errorf("id %s: want -32600 with its id", id)
		}
	}
	if n := strings.Count(strings.Join(out, "\n"), `"id":1,`); n != 1 { // initialize's
		t.Error("1.5 was answered as id 1")
	}
}

// Issue 11, defect 1: a request reusing an id that is still in flight
// gets its own -32600; the first still gets its answer.
func TestReusedIDInFlight(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	p := startInteractive(t, release)
	p.send(t, initLine, initDone)
	p.next(t)
	p.send(t, `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"hold","arguments":{"text":"first"}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/list"}`)
	if first := p.next(t); !strings.Contains(first, `"id":"x","error":{"code":-32600`) {
		t.Fatalf("the reused id: want -32600 at once, got %.300s", first)
	}
	close(release)
	if second := p.next(t); !strings.Contains(second, `"id":"x","result"`) || !strings.Contains(second, `first`) {
		t.Fatalf("the first request: want its result, got %.300s", second)
	}
}

// Issue 11, defect 4: every error has a JSON-RPC code (never 0) and a
// message without Go internals.
func TestErrorCodes(t *testing.T) {
	t.Parallel()
	meta := func(v string) string {
		return `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	cases := []struct {
		line string
		code int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`, -32602}, // no session, no _meta
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":2026}}}`, -32602},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}`, -32602},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":null}}`, -32602},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[1]}`, -32602},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/list","params":"x"}`, -32602},
		{`{"jsonrpc":"2.0","id":7,"method":"server/discover","params":{` + meta("1999-01-01") + `}}`, -32022},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":5,` + meta26 + `}}`, -32602},
		{`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"no_such_tool",` + meta26 + `}}`, -32602},
		{`{"jsonrpc":"2.0","id":10,"method":"no/such","params":{` + meta26 + `}}`, -32601},
		{`{"jsonrpc":"2.0","id":11,"method":"initialize","params":{"protocolVersion":5}}`, -32602},
		{`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"` + strings.Repeat("n", 1<<20) + `",` + meta26 + `}}`, -32602},
	}
	var in []string
	for _, c := range cases {
		in = append(in, c.line)
	}
	out := run(t, lines(in...))
	got := byID(t, out)
	for i, c := range cases {
		m, ok := got[fmt.Sprint(i+1)]
		if !ok || m.Error == nil || m.Error.Code != c.code {
			t.Errorf("case %d: want code %d, got %+v", i+1, c.code, m.Error)
			continue
		}
		for _, internal := range []string{"jsonrpc2", "mcp.", "Go struct", "Go value", "reflect", "unmarshal"} {
			if strings.Contains(m.Error.Message, internal) {
				t.Errorf("case %d: Go internals in %q", i+1, m.Error.Message)
			}
		}
		if len(m.Error.Message) > 400 {
			t.Errorf("case %d: a %d-byte message echoes the input", i+1, len(m.Error.Message))
		}
	}
	var data struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	if json.Unmarshal(got["7"].Error.Data, &data); data.Requested != "1999-01-01" || len(data.Supported) == 0 {
		t.Errorf("server/discover at an unsupported version: data %s", got["7"].Error.Data)
	}
	for _, l := range out {
		if strings.Contains(l, `"code":0`) {
			t.Errorf("code 0: %.200s", l)
		}
	}
}

// Issue 11, defect 4: a client that asks server/discover (and makes a
// stateless call) and then chooses the old handshake must get a session.
func TestInitializeAfterDiscover(t *testing.T) {
	t.Parallel()
	init18 := `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	got := byID(t, run(t, lines(
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta26+`}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{`+meta26+`}}`,
		fmt.Sprintf(init18, 3),
		initDone,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
		fmt.Sprintf(init18, 5),
		`{"jsonrpc":"2.0","id":6,"method":"ping"}`,
	)))
	for _, id := range []string{"1", "2", "3", "4", "5", "6"} {
		if got[id].Error != nil || got[id].Result == nil {
			t.Errorf("id %s: want a result, got %+v", id, got[id].Error)
		}
	}
	if !strings.Contains(string(got["3"].Result), `"protocolVersion":"2025-06-18"`) {
		t.Errorf("initialize: %s", got["3"].Result)
	}
	// Issue 30: a repeated initialize gets the first one's result, and
	// the session goes on.
	if string(got["5"].Result) != string(got["3"].Result) {
		t.Errorf("a second initialize: want the first one's result, got %s", got["5"].Result)
	}
}

// The prepared answer goes out in the SDK's place, in order after an
// initialize sent before it; a request it declines goes to the SDK.
func TestPreparedAnswers(t *testing.T) {
	t.Parallel()
	var out testbin.Buffer
	prepared := func(r Request) []byte {
		if r.Method != "tools/list" {
			return nil
		}
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`, r.ID)
	}
	_, finished := start(t, testServer(nil), strings.NewReader(lines(initLine, initDone,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)), &out, Config{Prepared: prepared})
	<-finished
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != 3 || !strings.Contains(got[0], `"id":1,"result"`) {
		t.Fatalf("want initialize's answer first, then two; got:\n%s", out.String())
	}
	if !strings.Contains(out.String(), `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`) {
		t.Errorf("tools/list was not answered from the prepared bytes:\n%s", out.String())
	}
}

// Issue 30: initialize twice in one batch gets one result twice; after an
// initialize that failed, the next one is the SDK's to answer, and the
// session works.
func TestRepeatedInitializeEdges(t *testing.T) {
	t.Parallel()
	init := `{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	got := byID(t, run(t, lines(
		"["+fmt.Sprintf(init, 1)+","+fmt.Sprintf(init, 2)+"]",
		initDone,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	)))
	if got["1"].Result == nil || string(got["1"].Result) != string(got["2"].Result) {
		t.Errorf("a batch of two initializes: %+v / %+v", got["1"], got["2"])
	}
	got = byID(t, run(t, lines(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}`,
		fmt.Sprintf(init, 2),
		initDone,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	)))
	if got["1"].Error == nil || got["2"].Result == nil || got["3"].Result == nil {
		t.Errorf("after a failed initialize: %+v / %+v / %+v", got["1"], got["2"], got["3"])
	}
}
