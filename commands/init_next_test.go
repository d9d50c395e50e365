package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/testkit/testbin"
)

// After the stack is declined, "Next:" does not send the user to `stack
// describe`; in a package.json project the snippet it suggests is
// TypeScript.
func TestInitNextSteps(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"app"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SECRETS": "file", "HOME": t.TempDir()}
	ios, in, out, errOut := iostreams.Test()
	ios.StdinTTY, ios.StderrTTY = true, true
	in.WriteString("y\ny\nn\n") // the profile, the project, not the stack
	f := &Factory{IO: ios, Dir: t.TempDir(), Getenv: func(k string) string { return env[k] }, Now: time.Now,
		Executable: func() (string, error) { return "/usr/local/bin/loams", nil }}
	if code := Run(context.Background(), f, []string{"loams", "init", "--no-agent", "--project-dir", proj}, nil); code != 0 {
		t.Fatalf("init: exit %d, stderr %s", code, errOut)
	}
	_, next, _ := strings.Cut(errOut.String(), "Next:")
	if strings.Contains(next, "stack describe") || strings.Contains(next, "stack stop") {
		t.Errorf("Next suggests a stack that was declined:\n%s", next)
	}
	if !strings.Contains(next, "`loams init` again") {
		t.Errorf("Next does not say how to get the stack later:\n%s", next)
	}
	if !strings.Contains(next, "--language javascript") || strings.Contains(next, "--language python") {
		t.Errorf("a plain package.json project gets a non-JavaScript snippet:\n%s", next)
	}
	if !strings.Contains(out.String(), "skipped: declined") {
		t.Errorf("summary:\n%s", out)
	}
}

func TestSnippetLanguageOfProject(t *testing.T) {
	t.Parallel()
	for marker, want := range map[string]string{"package.json": "javascript", "tsconfig.json": "typescript", "pyproject.toml": "python", "go.mod": "go", "requirements.txt": "python", "": "python", "Cargo.toml": "python"} {
		dir := t.TempDir()
		if marker != "" {
			os.WriteFile(filepath.Join(dir, marker), []byte("{}\n"), 0o644)
		}
		if marker == "tsconfig.json" { // a TypeScript app has both
			os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}\n"), 0o644)
		}
		if got := snippetLanguage(dir); got != want {
			t.Errorf("%s: %s, want %s", marker, got, want)
		}
	}
}

// init -o text prints records, no prose, and nothing on stderr but notices.
func TestInitText(t *testing.T) {
	t.Parallel()
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SECRETS": "file", "HOME": t.TempDir(),
		"LOAMS_SERVER_BINARY": testbin.Build(t, "./internal/testkit/testserver")}
	argv := []string{"-o", "text", "init", "--yes", "--no-agent", "--port-base", portBase(t), "--project-dir", t.TempDir()}
	r := runLoams(t, env, false, argv...)
	defer runLoams(t, env, false, "stack", "stop", "dev", "--grace", "2s")
	if r.code != 0 {
		t.Fatalf("init: %d %s", r.code, r.stderr)
	}
	fields := map[string]int{"step": 3, "profile": 2, "stack": 3, "endpoint": 4, "env_file": 2, "agent": 3, "change": 2}
	checkTSV(t, r.stdout, fields)
	if !strings.Contains(r.stdout, "stack\tdev\trunning\n") || !strings.Contains(r.stdout, "change\tcreated and started stack dev\n") {
		t.Errorf("init text:\n%s", r.stdout)
	}
	// The second run changed nothing: no rows of prose say so.
	r = runLoams(t, env, false, argv...)
	checkTSV(t, r.stdout, fields)
	if strings.Contains(r.stdout, "change") || strings.Contains(r.stdout, "none") {
		t.Errorf("second init text:\n%s", r.stdout)
	}
}
