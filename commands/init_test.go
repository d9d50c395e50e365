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

	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/testkit/testbin"
)

type initJSON struct {
	Profile string `json:"profile"`
	Stack   struct {
		Name    string `json:"name"`
		State   string `json:"state"`
		Created bool   `json:"created"`
		Started bool   `json:"started"`
	} `json:"stack"`
	EnvFile *string `json:"env_file"`
	Agents  []struct {
		Agent, Status, Path string
		Entries             []string
	} `json:"agents"`
	Changes []string `json:"changes"`
}

// initWorld is a newcomer's machine: a git project, a HOME where Cursor is
// installed, an empty LOAMS_HOME and the stand-in server.
func initWorld(t *testing.T) (env []string, homeDir, proj string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: init's .gitignore step needs a real repository")
	}
	homeDir, proj = t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(homeDir, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	// PATH without claude or codex, so only Cursor is found.
	env = cliEnv(t, "HOME="+homeDir, "PATH=/usr/bin:/bin", "CLAUDE_PROJECT_DIR=")
	return env, homeDir, proj
}

func readAll(t *testing.T, paths ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("read %s: %v", p, err)
		}
		fi, _ := os.Stat(p)
		out[p] = string(b) + "\x00mtime " + fi.ModTime().String()
	}
	return out
}

func TestInitTwiceChangesNothing(t *testing.T) {
	t.Parallel()
	env, homeDir, proj := initWorld(t)
	loamsHome := strings.TrimPrefix(env[slices.IndexFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "LOAMS_HOME=") })], "LOAMS_HOME=")

	// No terminal and no --yes: refused before anything is written.
	out, errOut, code := loams(t, env, "init", "--project-dir", proj, "-o", "json")
	if code != 3 || out != "" || !strings.Contains(errOut, `"confirmation_required"`) {
		t.Fatalf("init without --yes: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	for _, p := range []string{filepath.Join(loamsHome, "config.toml"), filepath.Join(proj, ".env.loams"), filepath.Join(homeDir, ".cursor", "mcp.json")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists after a refused init", p)
		}
	}

	out, errOut, code = loams(t, env, "init", "--yes", "--port-base", portBase(t), "--project-dir", proj, "-o", "json")
	if code != 0 {
		t.Fatalf("init --yes: exit %d, stderr %s", code, errOut)
	}
	defer loams(t, env, "stack", "stop", "--name", "dev", "--grace", "2s")
	var first initJSON
	if err := json.Unmarshal([]byte(out), &first); err != nil {
		t.Fatalf("init json: %v\n%s", err, out)
	}
	envFile := filepath.Join(proj, ".env.loams")
	if first.Profile != "default" || first.Stack.Name != "dev" || first.Stack.State != "running" || !first.Stack.Created ||
		first.EnvFile == nil || *first.EnvFile != envFile || len(first.Changes) < 4 {
		t.Errorf("first init: %+v", first)
	}
	if len(first.Agents) != 1 || first.Agents[0].Agent != "cursor" || first.Agents[0].Status != "installed" ||
		!slices.Equal(first.Agents[0].Entries, []string{"loams", "loams-dev"}) {
		t.Errorf("first init agents: %+v", first.Agents)
	}
	dotenv, _ := os.ReadFile(envFile)
	if !strings.HasPrefix(string(dotenv), "# Written by loams") || !strings.Contains(string(dotenv), "\nLOAMS_STACK=dev\n") ||
		!strings.Contains(string(dotenv), "\nLOAMS_API_KEY=loams_") {
		t.Errorf(".env.loams:\n%s", dotenv)
	}
	_, keyLine, _ := strings.Cut(string(dotenv), "\nLOAMS_API_KEY=")
	if key, _, _ := strings.Cut(keyLine, "\n"); len(key) < 20 || strings.Contains(out+errOut, key) {
		t.Errorf("init's output shows the API key (or .env.loams has none: %q)", key)
	}
	if gi, _ := os.ReadFile(filepath.Join(proj, ".gitignore")); string(gi) != ".env.loams\n" {
		t.Errorf(".gitignore = %q", gi)
	}
	if _, _, code := loams(t, env, "env", "export", "--format", "shell"); code != 0 {
		t.Error("init did not leave a default stack for env export")
	}

	files := []string{filepath.Join(loamsHome, "config.toml"), envFile, filepath.Join(proj, ".gitignore"),
		filepath.Join(homeDir, ".cursor", "mcp.json"), filepath.Join(loamsHome, "stacks", "dev", "stack.toml")}
	// Set every mtime back to a fixed past: a rewrite, however fast, then
	// shows as a new mtime (no sleep needed to outrun the clock's grain).
	past := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range files {
		if err := os.Chtimes(p, past, past); err != nil {
			t.Fatal(err)
		}
	}
	before := readAll(t, files...)

	out, errOut, code = loams(t, env, "init", "--yes", "--project-dir", proj, "-o", "json")
	var second initJSON
	if code != 0 || json.Unmarshal([]byte(out), &second) != nil {
		t.Fatalf("second init: exit %d, stderr %s, stdout %s", code, errOut, out)
	}
	if second.Stack.Created || second.Stack.Started || second.Stack.State != "running" || len(second.Changes) != 0 ||
		len(second.Agents) != 1 || second.Agents[0].Status != "already_installed" {
		t.Errorf("second init changed something: %+v", second)
	}
	after := readAll(t, files...)
	for _, p := range files {
		if before[p] != after[p] {
			t.Errorf("second init rewrote %s", p)
		}
	}

	// A stopped stack is started again, nothing else moves.
	if _, errOut, code := loams(t, env, "stack", "stop", "--name", "dev", "--grace", "2s"); code != 0 {
		t.Fatalf("stop: %s", errOut)
	}
	out, errOut, _ = loams(t, env, "init", "--yes", "--no-agent", "--engines", "qdrant", "--project-dir", proj, "-o", "json")
	var third initJSON
	json.Unmarshal([]byte(out), &third)
	if !strings.Contains(out, "keeps its engines") || errOut != "" {
		t.Errorf("--engines on an existing stack must say in the document that it is not applied; stdout: %s\nstderr: %s", out, errOut)
	}
	if !third.Stack.Started || third.Stack.State != "running" || !slices.Equal(third.Changes, []string{"started stack dev"}) || len(third.Agents) != 0 {
		t.Errorf("init after stop: %+v", third)
	}
}

// On a terminal init asks before each step; a "no" skips just that step.
func TestInitAsksOnATerminal(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SECRETS": "file", "HOME": t.TempDir(),
		"LOAMS_SERVER_BINARY": testbin.Build(t, "./internal/testkit/testserver")}
	run := func(stdin string, argv ...string) (string, string, int) {
		ios, in, out, errOut := iostreams.Test()
		ios.StdinTTY, ios.StderrTTY = true, true
		in.WriteString(stdin)
		f := &Factory{IO: ios, Dir: t.TempDir(), Getenv: func(k string) string { return env[k] }, Now: time.Now,
			Executable: func() (string, error) { return "/usr/local/bin/loams", nil }}
		code := Run(context.Background(), f, append([]string{"loams"}, argv...), nil)
		return out.String(), errOut.String(), code
	}
	out, errOut, code := run("y\ny\ny\nn\n", "init", "--no-agent", "--port-base", portBase(t), "--project-dir", proj)
	defer run("", "stack", "stop", "--name", "dev", "--grace", "2s")
	if code != 0 {
		t.Fatalf("init: exit %d, stderr %s", code, errOut)
	}
	if !strings.Contains(errOut, "Create and start the stack dev? [Y/n]") || !strings.Contains(errOut, "Write "+filepath.Join(proj, ".env.loams")+"? [Y/n]") {
		t.Errorf("questions on stderr:\n%s", errOut)
	}
	if !strings.Contains(out, "done: created and started dev") || !strings.Contains(out, "skipped: declined") {
		t.Errorf("summary:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(proj, ".env.loams")); err == nil {
		t.Error(".env.loams was written after the user said no")
	}
}

// `loams --profile work init` sets up profile work, and the agent it
// registers runs `mcp serve --profile work`, so the agent sees the same
// stacks and endpoint the user just set up.
func TestInitUnderAProfileRegistersIt(t *testing.T) {
	t.Parallel()
	env, homeDir, proj := initWorld(t)
	out, errOut, code := loams(t, env, "--profile", "work", "init", "--yes", "--port-base", portBase(t), "--project-dir", proj, "-o", "json")
	if code != 0 {
		t.Fatalf("init: exit %d, stderr %s", code, errOut)
	}
	defer loams(t, env, "--profile", "work", "stack", "stop", "--name", "dev", "--grace", "2s")
	var res initJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Profile != "work" {
		t.Fatalf("init json: %v %+v", err, res)
	}
	var doc struct {
		MCPServers map[string]struct {
			Args []string `json:"args"`
		} `json:"mcpServers"`
	}
	b, _ := os.ReadFile(filepath.Join(homeDir, ".cursor", "mcp.json"))
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.MCPServers["loams"].Args; !slices.Equal(got, []string{"mcp", "serve", "--profile", "work"}) {
		t.Fatalf("entry args %q in\n%s", got, b)
	}
}

// Issue 21: the summary tells the truth. A declined stack and a broken
// agent config are "skipped: declined" and "failed: …", and init exits
// non-zero; with no agent anywhere the agent step says so.
func TestInitSummaryTellsTheTruth(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".cursor", "mcp.json"), []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SECRETS": "file", "HOME": home, "PATH": "/nonexistent"}
	proj := t.TempDir()
	out, errOut, code := ttyRun(t, env, "y\ny\nn\n", "init", "--project-dir", proj)
	if code == 0 || !strings.Contains(errOut, "error: cursor:") {
		t.Fatalf("a failed agent: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"stack:    skipped: declined", "agents:   failed: cursor failed: "} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "none") || strings.Contains(errOut, "Register") {
		t.Errorf("a broken config was asked about, or the summary says nothing happened:\n%s\n%s", out, errOut)
	}

	env["HOME"] = t.TempDir() // no agent at all
	out, errOut, code = ttyRun(t, env, "n\n", "init", "--project-dir", proj)
	if code != 0 || !strings.Contains(out, "agents:   skipped: no coding agent found") {
		t.Errorf("no agent: exit %d\n%s\n%s", code, out, errOut)
	}
}
