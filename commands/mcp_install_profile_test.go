package commands

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/testkit/standin"
	"loams.dev/cli/internal/testkit/testbin"
)

// `loams --profile staging mcp install` registers a server that answers for
// staging: the entry runs `mcp serve --profile staging`, and that exact
// command, started as the agent would (no LOAMS_PROFILE in its environment),
// lists the remote deployment. A profile that does not exist is refused
// before any file is touched, as is an endpoint URL carrying a password.
func TestMCPInstallUnderProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	root := t.TempDir()
	srv, ca := standin.StartTLS(t, remoteKey)
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := cliEnv(t, "HOME="+home, "PATH=/usr/bin:/bin", "LOAMS_PROFILE=", "LOAMS_ENDPOINT=")
	for _, args := range [][]string{
		{"--profile", "staging", "configure", "set", "endpoint", srv.URL},
		{"--profile", "staging", "configure", "set", "ca_cert", ca.PEMPath},
	} {
		if _, errOut, code := loams(t, env, args...); code != 0 {
			t.Fatalf("%v: %d %s", args, code, errOut)
		}
	}
	login := exec.Command(testbin.Loams(t), "--profile", "staging", "login", "--with-api-key")
	login.Env, login.Stdin = env, strings.NewReader(remoteKey+"\n")
	if out, err := login.CombinedOutput(); err != nil {
		t.Fatalf("login: %v\n%s", err, out)
	}

	cfg := filepath.Join(home, ".cursor", "mcp.json")
	if _, errOut, code := loams(t, env, "--profile", "nope", "mcp", "install", "--agent", "cursor"); code == 0 || !strings.Contains(errOut, "profile_not_found") && !strings.Contains(errOut, `no profile named "nope"`) {
		t.Fatalf("unknown profile: exit %d %s", code, errOut)
	}
	// A password in the endpoint URL never reaches the agent's config.
	if _, errOut, code := loams(t, env, "--endpoint", "https://me:hunter2hunter2@127.0.0.1:1", "mcp", "install", "--agent", "cursor"); code != 2 || strings.Contains(errOut, "hunter2") {
		t.Fatalf("endpoint with credentials: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(cfg); !os.IsNotExist(err) {
		t.Fatalf("a refused install touched %s: %v", cfg, err)
	}
	if _, errOut, code := loams(t, env, "--profile", "staging", "mcp", "install", "--agent", "cursor"); code != 0 {
		t.Fatalf("install: %d %s", code, errOut)
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	b, _ := os.ReadFile(cfg)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v\n%s", cfg, err, b)
	}
	entry := doc.MCPServers["loams"]
	if !slices.Equal(entry.Args, []string{"mcp", "serve", "--profile", "staging"}) {
		t.Fatalf("entry args %q in\n%s", entry.Args, b)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	session, _ := mcpSession(t, ctx, env, root, append([]string{entry.Command}, entry.Args...)...)
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "stack_status", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("stack_status: %v %+v", err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var status struct {
		Stacks []map[string]any `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(text), &status); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(status.Stacks, func(s map[string]any) bool { return s["kind"] == "remote" })
	if i < 0 || status.Stacks[i]["name"] != "staging" || status.Stacks[i]["endpoint"] != srv.URL || status.Stacks[i]["state"] != "reachable" {
		t.Fatalf("stack_status from the installed entry: %s", text)
	}
	if strings.Contains(text, remoteKey[19:]) || strings.Contains(string(b), remoteKey[19:]) {
		t.Fatal("the key reached the tool result or the agent's config")
	}
}
