package agents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/testkit/testbin"
)

// The test binary doubles as a small MCP server (two tools) when the
// config entry's env asks for it, so doctor talks to a real process.
func TestMain(m *testing.M) {
	if os.Getenv("LOAMS_AGENTS_TEST_SERVER") == "1" {
		s := mcp.NewServer(&mcp.Implementation{Name: "loams", Version: "9.9.9"}, nil)
		type in struct{}
		for _, name := range []string{"search_docs", "loams_info"} {
			mcp.AddTool(s, &mcp.Tool{Name: name, Description: name}, func(context.Context, *mcp.CallToolRequest, in) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{}, nil, nil
			})
		}
		s.Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	}
	os.Exit(testbin.Main(m)) // fails the run when a process a test started outlives it
}

func TestDoctor(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	self, _ := os.Executable()
	w.env.Executable = self
	cfg := filepath.Join(w.home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte(`{"mcpServers":{"loams":{"command":"`+self+`","args":["mcp","serve"],"env":{"LOAMS_AGENTS_TEST_SERVER":"1"}},"other":{"command":"nope"}}}`), 0o600)
	// A stale path, as after moving the binary.
	if _, err := Install(context.Background(), w.env, InstallRequest{Agent: "windsurf", AllowTemporaryBinary: true}); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(w.home, ".codeium", "windsurf", "mcp_config.json")
	b, _ := os.ReadFile(ws)
	os.WriteFile(ws, []byte(strings.ReplaceAll(string(b), self, "/gone/loams")), 0o600)
	// Broken: the program exists but is no MCP server.
	os.WriteFile(filepath.Join(w.project, ".mcp.json"), []byte(`{"mcpServers":{"loams":{"command":"/bin/false","args":[]}}}`), 0o644)

	// opencode's shape: the command is one array, the env is "environment".
	os.WriteFile(filepath.Join(w.project, "opencode.jsonc"), []byte(`{
  // mine
  "mcp": {"loams": {"type": "local", "command": ["`+self+`", "mcp", "serve"], "environment": {"LOAMS_AGENTS_TEST_SERVER": "1"},},},
}`), 0o644)
	checks, err := Doctor(context.Background(), w.env)
	if err != nil {
		t.Fatal(err)
	}
	byAgent := map[string]Check{}
	for _, c := range checks {
		byAgent[c.Agent+"/"+c.Scope] = c
	}
	if oc := byAgent["opencode/project"]; !oc.Connected || oc.Tools != 2 || oc.ProtocolVersion != "2025-11-25" {
		t.Errorf("opencode: %+v", oc)
	}
	if len(checks) != 4 {
		t.Fatalf("got %d checks: %+v", len(checks), checks)
	}
	ok := byAgent["cursor/user"]
	if !ok.Connected || ok.Tools != 2 || ok.ProtocolVersion != "2025-06-18" || ok.ServerVersion != "9.9.9" || ok.Error != "" {
		t.Errorf("cursor: %+v", ok)
	}
	stale := byAgent["windsurf/user"]
	if stale.Connected || !strings.Contains(stale.Error, "/gone/loams does not exist") || stale.Fix != "loams mcp install --agent windsurf --scope user" {
		t.Errorf("windsurf: %+v", stale)
	}
	broken := byAgent["claude-code/project"]
	if broken.Connected || !strings.Contains(broken.Error, "handshake failed") || broken.Fix == "" {
		t.Errorf("claude-code: %+v", broken)
	}
}

// Gemini CLI withholds credential-like variables from the servers it
// starts (unless the entry's env sets them); Qwen Code passes everything.
// Doctor starts servers with the same environment.
func TestServerEnvFollowsTheHost(t *testing.T) {
	t.Setenv("LOAMS_REGISTRY_TOKEN", "secret-value")
	t.Setenv("SSL_CERT_FILE", "/etc/my-ca.pem")
	t.Setenv("LOAMS_PROFILE", "dev")
	w := newWorld(t)
	has := func(env []string, kv string) bool {
		for _, x := range env {
			if x == kv {
				return true
			}
		}
		return false
	}
	g := w.env.serverEnv(geminiCLI, map[string]string{"NPM_TOKEN": "from-entry"})
	if has(g, "LOAMS_REGISTRY_TOKEN=secret-value") || has(g, "SSL_CERT_FILE=/etc/my-ca.pem") || !has(g, "LOAMS_PROFILE=dev") || !has(g, "NPM_TOKEN=from-entry") {
		t.Errorf("gemini env: %v", g)
	}
	if got := w.env.withheld(geminiCLI, nil); !strings.Contains(strings.Join(got, ","), "LOAMS_REGISTRY_TOKEN") || !strings.Contains(strings.Join(got, ","), "SSL_CERT_FILE") {
		t.Errorf("withheld: %v", got)
	}
	q := w.env.serverEnv(qwenCode, nil)
	if !has(q, "LOAMS_REGISTRY_TOKEN=secret-value") || !has(q, "SSL_CERT_FILE=/etc/my-ca.pem") {
		t.Errorf("qwen env lost variables")
	}
	c := w.env.serverEnv(claudeCode, nil)
	if !has(c, "CLAUDE_PROJECT_DIR="+w.project) {
		t.Errorf("claude code does not get its project variable")
	}
}
