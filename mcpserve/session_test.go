package mcpserve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// session is a model's side of `loams mcp serve`, spoken line by line so
// every byte the model receives is counted.
type session struct {
	t        *testing.T
	p        *proc
	next     int
	received int // bytes of every response line
	calls    int // tools/call requests
	seen     strings.Builder
	// stateless sends every request with 2026-07-28's _meta, no handshake.
	stateless bool
}

func (s *session) request(method string, params map[string]any) map[string]any {
	s.t.Helper()
	res, rpcErr := s.send(method, params)
	if rpcErr != nil {
		s.t.Fatalf("%s: %v", method, rpcErr)
	}
	return res
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// send is one request; a JSON-RPC error comes back as such. A stateless
// session (2026-07-28) puts the protocol's _meta in every request.
func (s *session) send(method string, params map[string]any) (map[string]any, *rpcError) {
	s.t.Helper()
	s.next++
	if s.stateless {
		if params == nil {
			params = map[string]any{}
		}
		params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": map[string]any{}}
	}
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.next, "method": method, "params": params})
	s.p.send(string(req))
	for {
		line := s.p.next() + "\n"
		s.received += len(line)
		s.seen.WriteString(line)
		var resp struct {
			ID     int            `json:"id"`
			Result map[string]any `json:"result"`
			Error  *rpcError      `json:"error"`
		}
		if json.Unmarshal([]byte(line), &resp) == nil && resp.ID == s.next {
			return resp.Result, resp.Error
		}
	}
}

// call is one tool call; it returns the structured result.
func (s *session) call(name string, args map[string]any) map[string]any {
	s.t.Helper()
	s.calls++
	res := s.request("tools/call", map[string]any{"name": name, "arguments": args})
	out, _ := res["structuredContent"].(map[string]any)
	if res["isError"] == true {
		s.t.Fatalf("%s %v: %v", name, args, out)
	}
	return out
}

// createStack is stack_create as a model recovers from a port another
// test's stack took at the same moment (port_in_use): it starts the stack
// again. Those retries are the machine's, not the session's: not counted.
func (s *session) createStack(args map[string]any) map[string]any {
	s.t.Helper()
	s.calls++
	res := s.request("tools/call", map[string]any{"name": "stack_create", "arguments": args})
	out, _ := res["structuredContent"].(map[string]any)
	for try := 0; res["isError"] == true && out["error"] == "port_in_use" && try < 5; try++ {
		res = s.request("tools/call", map[string]any{"name": "stack_start", "arguments": map[string]any{"name": args["name"]}})
		out, _ = res["structuredContent"].(map[string]any)
	}
	if res["isError"] == true {
		s.t.Fatalf("stack_create %v: %v", args, out)
	}
	return out
}

// TestAgentSession plays a model that takes an empty project to a running
// stack: it asks the docs how to connect from Python (and gets the code in
// that one answer), creates and starts a stack, writes .env.loams and dry
// runs adding the SDK. It counts the calls and the bytes the model reads,
// and checks that the stack's key never reached it.
func TestAgentSession(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	s := startSession(t, project)
	s.request("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "model", "version": "1"}})
	s.p.send(initDone)
	s.request("tools/list", map[string]any{})
	handshake := s.received

	// 1. How do I connect from Python? The first result carries the code.
	docs := s.call("search_docs", map[string]any{"query": "connect to qdrant from python"})
	first := docs["results"].([]any)[0].(map[string]any)
	content, _ := first["content"].(string)
	if !strings.Contains(content, "```python\nimport os\nfrom qdrant_client import QdrantClient\n") {
		t.Fatalf("the first search result has no Python to copy:\n%v", first)
	}
	// The model writes its app with that code, and a pyproject.toml.
	code := content[strings.Index(content, "```python\n")+10:]
	code = code[:strings.Index(code, "```")]
	os.WriteFile(filepath.Join(project, "app.py"), []byte(code), 0o644)
	os.WriteFile(filepath.Join(project, "pyproject.toml"), []byte("[project]\nname = \"app\"\nversion = \"0.1.0\"\n"), 0o644)

	// 2. A stack with the engine that code talks to, started.
	if st := s.createStack(map[string]any{"name": "app", "engines": []string{"qdrant"}}); st["state"] != "running" {
		t.Fatalf("stack_create: %v", st)
	}
	// 3. Its settings into .env.loams, where the code reads them.
	env := s.call("env_export", map[string]any{"name": "app"})
	dotenv, err := os.ReadFile(filepath.Join(project, ".env.loams"))
	if err != nil || !strings.Contains(string(dotenv), "QDRANT_URL=") {
		t.Fatalf(".env.loams: %v\n%s\n%v", err, dotenv, env)
	}
	// 4. The SDK, as a dry run: the command the model would run.
	pkg := s.call("add_package", map[string]any{"package": "sdk", "dry_run": true})
	if argv, _ := pkg["command"].([]any); len(argv) == 0 {
		t.Fatalf("add_package dry run: %v", pkg)
	}

	if s.calls > 5 {
		t.Errorf("the session took %d tool calls; the target is 5", s.calls)
	}
	key := ""
	for _, line := range strings.Split(string(dotenv), "\n") {
		if v, ok := strings.CutPrefix(line, "LOAMS_API_KEY="); ok {
			key = strings.Trim(v, `"'`)
		}
	}
	if len(key) < 16 {
		t.Fatalf("no key in .env.loams:\n%s", dotenv)
	}
	if strings.Contains(s.seen.String(), key) {
		t.Error("the stack's key reached the model")
	}
	t.Logf("agent session: %d tool calls, %d bytes received by the model (%d of them the handshake and tools/list, %d the calls)",
		s.calls, s.received, handshake, s.received-handshake)
}

// startSession runs `loams mcp serve` for project, the stand-in as the
// server binary; cleanup closes stdin, waits for the exit and stops the
// stack "app" if one was made.
func startSession(t *testing.T, project string) *session {
	t.Helper()
	p := startServer(t, withStandIn(), inProject(project))
	t.Cleanup(func() {
		p.wait()
		if _, err := os.Stat(filepath.Join(p.home, "stacks", "app")); err == nil {
			stopStack(t, p.env, "app")
		}
	})
	return &session{t: t, p: p}
}
