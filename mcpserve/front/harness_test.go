package front

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/testkit/testbin"
)

// The front's tests put it before a minimal SDK server: the properties
// under test (framing, ids, codes, sessions) are the front's, whatever
// tools stand behind it.

const (
	initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	initDone = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	// meta26 is the _meta of a 2026-07-28 request.
	meta26 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
)

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// rpc is one answer as a client reads it.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// testServer is an SDK server with two tools: echo answers at once, hold
// answers when release is closed (nil: at once).
func testServer(release <-chan struct{}) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	type text struct {
		Text string `json:"text,omitempty"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Echoes text."}, func(_ context.Context, _ *mcp.CallToolRequest, in text) (*mcp.CallToolResult, text, error) {
		return nil, in, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "hold", Description: "Answers once released."}, func(ctx context.Context, _ *mcp.CallToolRequest, in text) (*mcp.CallToolResult, text, error) {
		if release != nil {
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		return nil, in, nil
	})
	return srv
}

// start connects a front writing to out to srv and reads in; the result
// is closed once every request read has been answered after the input ends.
func start(t testing.TB, srv *mcp.Server, in io.Reader, out io.Writer, cfg Config) (*Front, <-chan struct{}) {
	t.Helper()
	f := New(out, cfg)
	var ended sync.WaitGroup
	for _, tr := range f.Transports() {
		ss, err := srv.Connect(context.Background(), tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		ended.Add(1)
		go func() { defer ended.Done(); _ = ss.Wait() }()
	}
	go f.Read(in)
	finished := make(chan struct{})
	go func() {
		<-f.Done()
		f.CloseSessions()
		ended.Wait()
		close(finished)
	}()
	return f, finished
}

// run feeds input to a front and returns its stdout lines once it is done.
func run(t testing.TB, input string) []string {
	t.Helper()
	var out testbin.Buffer
	_, finished := start(t, testServer(nil), strings.NewReader(input), &out, Config{})
	<-finished
	s := strings.TrimSuffix(out.String(), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

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

// byID indexes answers by their id's bytes.
func byID(t *testing.T, lines []string) map[string]rpc {
	m := map[string]rpc{}
	for _, a := range answers(t, lines) {
		m[string(a.ID)] = a
	}
	return m
}

// interactive is a front fed line by line, its answers read one at a time.
type interactive struct {
	in   *io.PipeWriter
	outs chan string
}

func startInteractive(t *testing.T, release <-chan struct{}) *interactive {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	_, finished := start(t, testServer(release), inR, outW, Config{})
	p := &interactive{in: inW, outs: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p.outs <- sc.Text()
		}
		close(p.outs)
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		<-finished
		_ = outW.Close()
	})
	return p
}

func (p *interactive) send(t *testing.T, ls ...string) {
	t.Helper()
	if _, err := io.WriteString(p.in, lines(ls...)); err != nil {
		t.Fatal(err)
	}
}

// next is the next answer line; the test's own timeout bounds the wait.
func (p *interactive) next(t *testing.T) string {
	t.Helper()
	l, ok := <-p.outs
	if !ok {
		t.Fatal("stdout ended")
	}
	return l
}
