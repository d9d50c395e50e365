package commands

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// loamsOnPath copies the test binary to a bin directory as `loams` (an
// installed copy) and returns that directory.
func loamsOnPath(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	b, err := os.ReadFile(testbin.Loams(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := testbin.WriteExecutable(filepath.Join(bin, "loams"), b); err != nil {
		t.Fatal(err)
	}
	return bin
}

// issue 21: the README tour's `loams mcp install --agent claude-code`
// works without the claude program (the file is edited).
func TestMCPInstallClaudeCodeWithoutClaude(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := cliEnv(t, "HOME="+home, "PATH=/usr/bin:/bin")
	out, stderr, code := loams(t, env, "mcp", "install", "--agent", "claude-code", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	b, err := os.ReadFile(filepath.Join(home, ".claude.json"))
	if err != nil || !strings.Contains(string(b), `"mcpServers"`) || !strings.Contains(string(b), testbin.Loams(t)) {
		t.Fatalf("%v: %s", err, b)
	}
}

// issue 21 and 22: a project entry names `loams` (on PATH) and carries the
// access mode; --with-skill writes SKILL.md from the server's own tool
// descriptions for the enabled tools; an unknown tool is a usage error
// listing the eight; doctor shows the mode.
func TestMCPInstallModesAndSkill(t *testing.T) {
	t.Parallel()
	bin := loamsOnPath(t)
	proj, home := t.TempDir(), t.TempDir()
	env := cliEnv(t, "HOME="+home, "PATH="+bin+":/usr/bin:/bin")
	installed := filepath.Join(bin, "loams")
	run := func(args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(installed, args...)
		cmd.Env, cmd.Dir = env, proj
		var o, e strings.Builder
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return o.String(), e.String(), ee.ExitCode()
		}
		return o.String(), e.String(), 0
	}
	out, stderr, code := run("mcp", "install", "--agent", "claude-code", "--scope", "project", "--project-dir", proj,
		"--tools", "env_export,search_docs", "--with-skill", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	var entry struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	b, _ := os.ReadFile(filepath.Join(proj, ".mcp.json"))
	if err := json.Unmarshal(b, &entry); err != nil {
		t.Fatal(err)
	}
	if l := entry.MCPServers["loams"]; l.Command != "loams" || strings.Join(l.Args, " ") != "mcp serve --tools search_docs,env_export" {
		t.Fatalf(".mcp.json: %s", b)
	}
	skill, err := os.ReadFile(filepath.Join(proj, ".claude", "skills", "loams", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Issue 30: the file is the skill the server serves in that mode.
	serve := exec.Command(installed, "mcp", "serve", "--tools", "search_docs,env_export")
	serve.Env, serve.Dir = env, proj
	serve.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"skill://loams/SKILL.md"}}` + "\n")
	served, err := serve.Output()
	if err != nil {
		t.Fatal(err)
	}
	var read struct {
		ID     int `json:"id"`
		Result struct {
			Contents []struct{ Text string } `json:"contents"`
		} `json:"result"`
	}
	for _, line := range strings.Split(strings.TrimSpace(string(served)), "\n") {
		if json.Unmarshal([]byte(line), &read) == nil && read.ID == 2 {
			break
		}
	}
	if len(read.Result.Contents) != 1 || read.Result.Contents[0].Text != string(skill) {
		t.Errorf("the skill file differs from the one the server serves:\n%s\n---\n%s", skill, served)
	}
	tools, _, _ := run("mcp", "tools", "-o", "json")
	var list struct {
		Tools []struct{ Name, Description string } `json:"tools"`
	}
	json.Unmarshal([]byte(tools), &list)
	for _, tl := range list.Tools {
		listed := strings.Contains(string(skill), "- `"+tl.Name+"` (")
		if want := tl.Name == "search_docs" || tl.Name == "env_export"; listed != want {
			t.Errorf("%s listed=%v in the skill", tl.Name, listed)
		}
		if listed && !strings.Contains(string(skill), tl.Description) {
			t.Errorf("%s: the skill does not carry the tool's description", tl.Name)
		}
	}
	if len(list.Tools) != 8 {
		t.Fatalf("mcp tools: %s", tools)
	}

	_, stderr, code = run("mcp", "install", "--agent", "cursor", "--tools", "search_docs,stack_delete", "-o", "json")
	if code != 2 || !strings.Contains(stderr, "stack_delete") || !strings.Contains(stderr, "search_docs, get_sdk_snippet, loams_info, stack_status, stack_create, stack_start, env_export, add_package") {
		t.Fatalf("unknown tool: exit %d %s", code, stderr)
	}

	out, _, _ = run("mcp", "doctor", "--project-dir", proj, "-o", "json")
	if !strings.Contains(out, `"mode": "search_docs,env_export"`) && !strings.Contains(out, `"mode":"search_docs,env_export"`) {
		t.Errorf("doctor does not show the mode: %s", out)
	}

	out, stderr, code = run("mcp", "uninstall", "--agent", "claude-code", "--project-dir", proj)
	if code != 0 {
		t.Fatalf("uninstall: exit %d %s %s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(proj, ".claude", "skills", "loams")); !os.IsNotExist(err) {
		t.Errorf("uninstall left the skill: %s", out)
	}
}

// issue 24: a directory where .mcp.json should be is exit 5
// config_unreadable with a hint (it was exit 1, "a bug in loams").
func TestMCPInstallConfigIsADirectory(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	os.MkdirAll(filepath.Join(proj, ".mcp.json"), 0o755)
	env := cliEnv(t, "HOME="+t.TempDir(), "PATH=/usr/bin:/bin")
	_, stderr, code := loams(t, env, "mcp", "install", "--agent", "claude-code", "--scope", "project", "--project-dir", proj, "-o", "json")
	var doc struct{ Error struct{ Code, Hint string } }
	if err := json.Unmarshal([]byte(stderr), &doc); err != nil || code != 5 || doc.Error.Code != "config_unreadable" || doc.Error.Hint == "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
