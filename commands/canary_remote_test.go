package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/testkit/standin"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/secret"
)

// The canary test for endpoints: the canary is a remote profile's key
// (planted through the file backend, and the key the stand-in behind TLS
// requires), then every tool and every command runs under that profile
// (and `login --with-api-key` gets it on stdin). Nothing loams prints or
// logs may hold it.
func TestCanaryProfileKeyNeverLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	root := t.TempDir()
	srv, ca := standin.StartTLS(t, canary)

	h := home.Home{Dir: filepath.Join(root, "loams-home")}
	project := filepath.Join(root, "project")
	for _, d := range []string{project, filepath.Join(root, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"app"}`), 0o644)
	if err := os.MkdirAll(h.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "[profile.default]\nendpoint = \"" + srv.URL + "\"\nca_cert = \"" + ca.PEMPath + "\"\nnamespace = \"app\"\n"
	if err := os.WriteFile(h.Config(), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := (secret.File{Home: h, Scope: secret.Profiles}).Set(context.Background(), "default", secret.New(canary)); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "LOAMS_HOME="+h.Dir, "LOAMS_SECRETS=file", "HOME="+filepath.Join(root, "home"),
		"CI=true", "CLAUDE_PROJECT_DIR="+project, "LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testkit/testserver"))

	run := canaryRunner(t, env, project)
	var seen strings.Builder
	// The endpoint's own commands, with the key where they take it.
	for _, args := range [][]string{
		{"login", "--with-api-key"}, {"-o", "json", "login", "--with-api-key"}, {"whoami"}, {"status"},
		{"-o", "json", "env", "export"}, {"env", "export", "--write", ".env.loams"},
	} {
		seen.WriteString(run(canary+"\n", args...))
	}
	if got := run("", "whoami", "-o", "json"); !strings.Contains(got, "canary0000a1") {
		t.Fatalf("the planted key is not in use (whoami shows no key id):\n%s", got)
	}

	calls, nTools := callEveryTool(t, env, project, &seen)

	ios, _, _, _ := iostreams.Test()
	commands := 0
	for _, leaf := range leaves(NewRoot(&Factory{IO: ios, Getenv: func(string) string { return "" }}), nil) {
		if leaf.path[0] == "stack" || leaf.cmd.SkipFlagParsing {
			continue // local stacks and the server pass-through: the stack canary covers them; they read no profile key
		}
		seen.WriteString(run("", append([]string{"--output", "json"}, leaf.path...)...))
		seen.WriteString(run(canary+"\n", append(append([]string{"--output", "json"}, leaf.path...), plausibleFlags(leaf.cmd)...)...))
		commands++
	}
	if data, err := os.ReadFile(h.MCPLog()); err == nil {
		seen.Write(data)
	} else {
		t.Errorf("%s: %v (the test must exercise it)", h.MCPLog(), err)
	}
	if i := strings.Index(seen.String(), canary[len(canary)-20:]); i >= 0 {
		t.Fatalf("the profile key leaked:\n…%s…", seen.String()[max(0, i-300):min(seen.Len(), i+100)])
	}
	if dotenv, _ := os.ReadFile(filepath.Join(project, ".env.loams")); !strings.Contains(string(dotenv), canary) {
		t.Fatal("env export did not write the key to .env.loams: the scan proves nothing")
	}
	if calls < 3*nTools || commands < 15 {
		t.Fatalf("too little covered: %d tool calls over %d tools, %d commands", calls, nTools, commands)
	}
	t.Logf("scanned %d tool calls and %d commands under a remote profile, %d bytes", calls, commands, seen.Len())
}
