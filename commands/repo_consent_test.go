package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/secret"
)

// callTool calls one MCP tool of `loams mcp serve` started in dir and
// returns its structured result and whether it is an error.
func (u *repoUser) callTool(dir, tool string, args map[string]any) (map[string]any, bool) {
	t := u.t
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, _ := mcpSession(t, ctx, u.env, dir)
	defer s.Close()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	json.Unmarshal(raw, &m)
	return m, res.IsError
}

// withRemoteProfile gives the user a remote profile prod with its key stored.
func (u *repoUser) withRemoteProfile(key string) {
	t := u.t
	h := home.Home{Dir: u.loamsHome}
	if err := os.MkdirAll(h.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.Config(), []byte("[profile.prod]\nendpoint = \"https://loams.example.com\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := (secret.File{Home: h, Scope: secret.Profiles}).Set(context.Background(), "prod", secret.New(key)); err != nil {
		t.Fatal(err)
	}
}

// A cloned repo's `[dev] profile = "prod"` does not get the production key
// written into it, by the CLI or by an agent's env_export {}: both are
// confirmation_required naming loams.toml, the profile and the explicit
// way; said explicitly, the file is written.
func TestRepoCannotChooseTheProfileKey(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary")
	}
	u := newRepoUser(t)
	u.withRemoteProfile(remoteKey)
	dir := u.repo("cloned", "[dev]\nprofile = \"prod\"\n")
	envPath := filepath.Join(dir, ".env.loams")
	manifest := filepath.Join(dir, "loams.toml")

	for _, argv := range [][]string{{"env", "export", "--write", ".env.loams"}, {"env", "export", "--merge", ".env"}} {
		r := u.run(dir, append([]string{"-o", "json"}, argv...)...)
		if r.code != 3 || !strings.Contains(r.stderr, `"confirmation_required"`) || !strings.Contains(r.stderr, manifest) ||
			!strings.Contains(r.stderr, `\"prod\"`) || !strings.Contains(r.stderr, "--profile prod") {
			t.Fatalf("%v: exit %d\n%s", argv, r.code, r.stderr)
		}
	}
	for _, p := range []string{envPath, filepath.Join(dir, ".env")} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("%s was written on loams.toml's word", p)
		}
	}
	res, isErr := u.callTool(dir, "env_export", map[string]any{})
	if !isErr || res["error"] != "confirmation_required" || !strings.Contains(res["hint"].(string), `{"profile": "prod"}`) ||
		!strings.Contains(res["message"].(string), manifest) {
		t.Fatalf("env_export {}: %v", res)
	}
	if _, err := os.Stat(envPath); err == nil {
		t.Fatal("env_export {} wrote the production key into the project")
	}

	// Printing goes to the person who asked: no write, no question.
	if r := u.run(dir, "-o", "json", "env", "export"); r.code != 0 || strings.Contains(r.stdout, remoteKey) {
		t.Fatalf("printing (redacted): exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	// Said explicitly: the CLI flag, the tool argument.
	if r := u.run(dir, "--profile", "prod", "env", "export", "--write", ".env.loams"); r.code != 0 {
		t.Fatalf("--profile prod: exit %d %s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(envPath); !strings.Contains(string(b), "LOAMS_API_KEY="+remoteKey) {
		t.Fatalf(".env.loams:\n%s", b)
	}
	os.Remove(envPath)
	if res, isErr := u.callTool(dir, "env_export", map[string]any{"profile": "prod"}); isErr {
		t.Fatalf(`env_export {"profile": "prod"}: %v`, res)
	}
	if b, _ := os.ReadFile(envPath); !strings.Contains(string(b), "LOAMS_API_KEY="+remoteKey) {
		t.Fatalf(".env.loams after env_export:\n%s", b)
	}
}

// A repo's `[dev] stack` naming a stack made for another project: not
// exported, started or bound (init) on loams.toml's word, from either
// face; named explicitly, it is.
func TestRepoCannotTakeAnotherProjectsStack(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary")
	}
	u := newRepoUser(t)
	mine := u.repo("mine", "")
	if r := u.run(mine, "stack", "create", "mine", "--no-start"); r.code != 0 {
		t.Fatalf("stack create: %d %s", r.code, r.stderr)
	}
	dir := u.repo("cloned", "[dev]\nstack = \"mine\"\n")
	before, _ := os.ReadFile(filepath.Join(dir, "loams.toml"))
	for _, argv := range [][]string{
		{"env", "export", "--write", ".env.loams"},
		{"stack", "start"},
		{"init", "--yes", "--no-agent", "--no-env"},
	} {
		r := u.run(dir, append([]string{"-o", "json"}, argv...)...)
		if r.code != 3 || !strings.Contains(r.stderr, `"confirmation_required"`) || !strings.Contains(r.stderr, filepath.Join(dir, "loams.toml")) ||
			!strings.Contains(r.stderr, mine) {
			t.Fatalf("%v: exit %d\n%s", argv, r.code, r.stderr)
		}
	}
	for tool, args := range map[string]map[string]any{"env_export": {}, "stack_start": {}} {
		res, isErr := u.callTool(dir, tool, args)
		if !isErr || res["error"] != "confirmation_required" || !strings.Contains(res["hint"].(string), `{"name": "mine"}`) {
			t.Fatalf("%s {}: %v", tool, res)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".env.loams")); err == nil {
		t.Fatal("another project's key was written on loams.toml's word")
	}
	if r := u.run(mine, "-o", "json", "stack", "describe", "mine"); !strings.Contains(r.stdout, `"state":"stopped"`) && !strings.Contains(r.stdout, `"state": "stopped"`) {
		t.Fatalf("the stack was started: %s", r.stdout)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "loams.toml")); string(after) != string(before) {
		t.Fatalf("loams.toml changed: %s", after)
	}
	// Named explicitly: the user's word.
	if r := u.run(dir, "env", "export", "--stack", "mine", "--write", ".env.loams"); r.code != 0 {
		t.Fatalf("--stack mine: exit %d %s", r.code, r.stderr)
	}
	if res, isErr := u.callTool(dir, "env_export", map[string]any{"name": "mine", "force": true}); isErr {
		t.Fatalf(`env_export {"name": "mine"}: %v`, res)
	}
}

// init in a repo whose loams.toml names profile prod sets up the profile
// the user chose (default here), never prod.
func TestInitWritesOnlyTheChosenProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary")
	}
	u := newRepoUser(t)
	u.withRemoteProfile(remoteKey)
	dir := u.repo("cloned", "[dev]\nprofile = \"prod\"\n")
	// The stack step fails (no such server): init's profile step comes first.
	noServer := filepath.Join(u.home, "no-server")
	r := u.run(dir, "-o", "json", "init", "--yes", "--no-agent", "--no-env", "--stack", "app", "--server-binary", noServer)
	p := u.profiles()
	if _, ok := p["prod"]["default_stack"]; ok {
		t.Fatalf("init wrote into the profile loams.toml named: %v\n%s", p, r.stderr)
	}
	// Inside a project init binds the project and sets no profile's
	// default_stack (project.md, "A project that is not bound"); the
	// profile it sets up is the chosen one.
	if d, ok := p["default"]; !ok || d["default_stack"] != nil {
		t.Fatalf("init did not set up the default profile alone: %v (exit %d)\n%s", p, r.code, r.stderr)
	}
}

// At a terminal the CLI asks instead of refusing: no writes nothing, yes
// writes the key of the profile loams.toml named.
func TestTerminalAsksBeforeWritingTheProjectsProfileKey(t *testing.T) {
	root := t.TempDir()
	loamsHome, dir := filepath.Join(root, "loams"), filepath.Join(root, "app")
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, "loams.toml"), []byte("[dev]\nprofile = \"prod\"\n"), 0o644)
	u := &repoUser{t: t, loamsHome: loamsHome}
	u.withRemoteProfile(remoteKey)
	env := map[string]string{"LOAMS_HOME": loamsHome, "LOAMS_SECRETS": "file", "HOME": root}
	for _, answer := range []string{"n", "y"} {
		ios, in, _, errOut := iostreams.Test()
		ios.StdinTTY, ios.StderrTTY = true, true
		in.WriteString(answer + "\n")
		f := &Factory{IO: ios, Dir: dir, Getenv: func(k string) string { return env[k] }, Now: time.Now}
		code := Run(context.Background(), f, []string{"loams", "env", "export", "--write", ".env.loams", "--project-dir", dir}, nil)
		b, _ := os.ReadFile(filepath.Join(dir, ".env.loams"))
		if !strings.Contains(errOut.String(), "names profile prod: write its key into this project? [y/N]") {
			t.Fatalf("%s: no question:\n%s", answer, errOut)
		}
		switch {
		case answer == "n" && (code != 3 || len(b) != 0):
			t.Fatalf("answered no: exit %d, file %q", code, b)
		case answer == "y" && (code != 0 || !strings.Contains(string(b), "LOAMS_API_KEY="+remoteKey)):
			t.Fatalf("answered yes: exit %d\n%s\n%s", code, errOut, b)
		}
	}
}
