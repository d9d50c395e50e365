package mcpserve_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loams.dev/cli/internal/testbin"
)

// answers splits stdout lines into messages (a batch line holds several).
func answers(t *testing.T, lines []string) []rpc {
	t.Helper()
	var out []rpc
	for _, l := range lines {
		var msgs []rpc
		if strings.HasPrefix(l, "[") {
			if err := json.Unmarshal([]byte(l), &msgs); err != nil {
				t.Fatalf("not a batch: %v\n%s", err, l)
			}
		} else {
			var m rpc
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("not JSON: %v\n%.300s", err, l)
			}
			msgs = []rpc{m}
		}
		out = append(out, msgs...)
	}
	return out
}

// runLines pipes input into `loams mcp serve`, which must exit 0 on EOF
// within 20 s, and returns its stdout lines and stderr.
func runLines(t *testing.T, input string, extraEnv ...string) ([]string, string) {
	t.Helper()
	env, _ := serveEnv(t, extraEnv...)
	p := startServe(t, env)
	if _, err := p.stdin.Write([]byte(input)); err != nil {
		t.Fatal(err)
	}
	out, code := p.wait(20 * time.Second)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	return out, p.stderr.String()
}

var initLine = fmt.Sprintf(initLegacy, "2025-11-25")

// Issue 11, defect 1: a batch of two requests with one id was never
// answered and the server never exited on EOF.
func TestBatchWithDuplicateIDs(t *testing.T) {
	t.Parallel()
	r := `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`
	out, _ := runLines(t, lines(initLine, initDone, "["+r+","+r+"]"))
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
	out, _ := runLines(t, lines(in...))
	joined := strings.Join(out, "\n")
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
	out, _ := runLines(t, lines(initLine, initDone,
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
	env, _ := serveEnv(t, "TESTSERVER_READY_DELAY=2s")
	createStack(t, env, "slow")
	p := startServe(t, env)
	p.send(initLine, initDone)
	p.next(30 * time.Second)
	p.send(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"stack_start","arguments":{"name":"slow"}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/list"}`)
	first := p.next(30 * time.Second)
	if !strings.Contains(first, `"id":"x","error":{"code":-32600`) {
		t.Fatalf("the reused id: want -32600 at once, got %.300s", first)
	}
	second := p.next(60 * time.Second)
	if !strings.Contains(second, `"id":"x","result"`) || !strings.Contains(second, `\"state\":\"running\"`) {
		t.Fatalf("the first request: want its result, got %.300s", second)
	}
	stopStack(t, env, "slow")
	if rest, code := p.wait(10 * time.Second); code != 0 || len(rest) != 0 {
		t.Fatalf("exit %d, extra lines %v", code, rest)
	}
}

// createStack makes a stopped stack with the stand-in server. Another
// test run on the machine (another worktree) may hold a block: then the
// next block is tried.
func createStack(t *testing.T, env []string, name string) {
	t.Helper()
	for try := 0; ; try++ {
		cmd := exec.Command(testbin.Loams(t), "stack", "create", "--name", name, "--no-start", "--port-base", fmt.Sprint(portBase()))
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err == nil {
			break
		}
		if try == 10 || !strings.Contains(string(out), "in use") {
			t.Fatalf("stack create: %v\n%s", err, out)
		}
	}
	t.Cleanup(func() { stopStack(t, env, name) })
}

// portBase spreads the stacks of parallel tests (in separate homes, which
// do not see each other's ports) over blocks from 30000 to 32600: below the
// kernel's ephemeral ports (32768+), above the stack package's test blocks
// (10000-19900) and the blocks loams picks itself (20000-29900).
func portBase() int {
	n := int(portBlocks.Add(1))
	return 30000 + (os.Getpid()*7+n)%27*100
}

var portBlocks atomic.Int32

func stopStack(t *testing.T, env []string, name string) {
	cmd := exec.Command(testbin.Loams(t), "stack", "stop", "--name", name, "--grace", "2s")
	cmd.Env = env
	_ = cmd.Run()
}
