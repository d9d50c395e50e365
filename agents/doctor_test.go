package agents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	os.Exit(m.Run())
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
	if _, err := Install(context.Background(), w.env, InstallRequest{Agent: "windsurf"}); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(w.home, ".codeium", "windsurf", "mcp_config.json")
	b, _ := os.ReadFile(ws)
	os.WriteFile(ws, []byte(strings.ReplaceAll(string(b), self, "/gone/loams")), 0o600)
	// Broken: the program exists but is no MCP server.
	os.WriteFile(filepath.Join(w.project, ".mcp.json"), []byte(`{"mcpServers":{"loams":{"command":"/bin/false","args":[]}}}`), 0o644)

	checks, err := Doctor(context.Background(), w.env)
	if err != nil {
		t.Fatal(err)
	}
	byAgent := map[string]Check{}
	for _, c := range checks {
		byAgent[c.Agent+"/"+c.Scope] = c
	}
	if len(checks) != 3 {
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
