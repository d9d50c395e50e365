package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/workspace"
)

// $CLAUDE_PROJECT_DIR names the project for a command an agent runs
// (secrets-env.md). It chose where the CLI's .env.loams went but not the
// loams.toml the stack was read from, so an agent whose shell stood in
// another app wrote that app's stack and key into this project. Now the
// one directory decides both, as it does under `mcp serve`.
func TestClaudeProjectDirChoosesTheBindingToo(t *testing.T) {
	t.Parallel()
	homeDir, _ := filepath.EvalSymlinks(t.TempDir())
	env := cliEnv(t, "HOME="+homeDir)
	baseA, baseB := portBase(t), portBase(t)
	for _, s := range []struct{ name, base string }{{"appa", baseA}, {"appb", baseB}} {
		if _, errOut, code := loams(t, env, "stack", "create", "--name", s.name, "--port-base", s.base, "--no-start",
			"--engines", "native"); code != 0 {
			t.Fatalf("create %s: %s", s.name, errOut)
		}
		dir := filepath.Join(homeDir, s.name)
		os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "loams.toml"), []byte("[dev]\nstack = \""+s.name+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(homeDir, "appa"), filepath.Join(homeDir, "appb")
	agentEnv := append(env, "CLAUDE_PROJECT_DIR="+a)

	out, errOut, code := loamsIn(t, agentEnv, b, "-o", "json", "env", "export", "--write", ".env.loams")
	var got struct {
		Stack  string
		Path   string
		Target workspace.Target
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("env export: exit %d %s %s", code, out, errOut)
	}
	if got.Stack != "appa" || got.Target.Project != a || got.Path != filepath.Join(a, ".env.loams") {
		t.Fatalf("CLAUDE_PROJECT_DIR=%s from %s exported %q (target %+v) into %s; want appa into appa", a, b, got.Stack, got.Target, got.Path)
	}
	written, err := os.ReadFile(got.Path)
	if err != nil || !strings.Contains(string(written), ":"+port(baseA, 80)) || strings.Contains(string(written), ":"+port(baseB, 80)) {
		t.Fatalf(".env.loams holds another app's ports: %v\n%s", err, written)
	}
	if _, err := os.Stat(filepath.Join(b, ".env.loams")); err == nil {
		t.Errorf("wrote into the shell's directory %s too", b)
	}
	// The read verbs agree with the write.
	out, errOut, code = loamsIn(t, agentEnv, b, "-o", "json", "stack", "describe")
	var desc struct{ Target workspace.Target }
	if code != 0 || json.Unmarshal([]byte(out), &desc) != nil || desc.Target.Stack != "appa" {
		t.Fatalf("stack describe: exit %d %s %s", code, out, errOut)
	}
}
