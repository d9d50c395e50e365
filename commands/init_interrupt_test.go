//go:build unix

package commands

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
)

// newcomer is a fresh app (git, package.json) on a machine with Cursor
// and no Loams server anywhere: no PATH entry, no package, no install,
// nothing published. Not CI, so a terminal may be asked.
func newcomer(t *testing.T) (env []string, homeDir, app string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: the app is a git repository")
	}
	homeDir, app = t.TempDir(), t.TempDir()
	app, _ = filepath.EvalSymlinks(app)
	if err := os.MkdirAll(filepath.Join(homeDir, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", app).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(app, "package.json"), []byte(`{"name":"app"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "LOAMS_") && k != "PATH" && k != "HOME" && k != "CI" && k != "CLAUDE_PROJECT_DIR" {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH=/usr/bin:/bin", "HOME="+homeDir, "LOAMS_HOME="+t.TempDir(), "LOAMS_SECRETS=file",
		"LOAMS_RELEASES_URL="+noReleases(t))
	return env, homeDir, app
}

// Issue 21, done when: with no server, `init --yes` still sets up the
// profile and the agents, says on the stack line how to get a server and
// exits 4 (also with --allow-download, which finds nothing published);
// with the stand-in server named afterwards, init finishes the rest.
func TestInitWithoutServerGetsSomewhere(t *testing.T) {
	t.Parallel()
	env, homeDir, app := newcomer(t)
	for _, extra := range [][]string{nil, {"--allow-download"}} {
		out, errOut, code := loamsIn(t, env, app, append([]string{"init", "--yes", "-o", "json"}, extra...)...)
		var res struct {
			initJSON
			Steps []struct{ Name, Status, Message string }
		}
		if code != 4 || json.Unmarshal([]byte(out), &res) != nil {
			t.Fatalf("init %v without a server: exit %d\n%s\n%s", extra, code, out, errOut)
		}
		if e := parseErr(t, errOut); e.Error.Code != "server_binary_not_found" || !strings.Contains(e.Error.Hint, "LOAMS_SERVER_BINARY") {
			t.Errorf("init %v: error %+v", extra, e.Error)
		}
		status := map[string]string{}
		for _, s := range res.Steps {
			status[s.Name] = s.Status
			if s.Name == "stack" && !strings.Contains(s.Message, "LOAMS_SERVER_BINARY") {
				t.Errorf("the stack line does not say how to get a server: %q", s.Message)
			}
		}
		if status["profile"] != "done" || status["project"] != "done" || status["stack"] != "failed" || status["env file"] != "skipped" || status["agents"] != "done" {
			t.Errorf("init %v steps: %+v", extra, res.Steps)
		}
	}
	// The project is bound before the stack step, server or not.
	if b, err := os.ReadFile(filepath.Join(app, "loams.toml")); err != nil || !strings.Contains(string(b), "[dev]\nstack = \"dev\"") {
		t.Fatalf("no loams.toml without a server: %v %q", err, b)
	}
	if b, err := os.ReadFile(filepath.Join(homeDir, ".cursor", "mcp.json")); err != nil || !strings.Contains(string(b), `"loams"`) {
		t.Fatalf("no agent entry without a server: %v %s", err, b)
	}

	env = append(env, "LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testkit/testserver"))
	out, errOut, code := loamsIn(t, env, app, "init", "--yes", "--port-base", portBase(t), "-o", "json")
	defer loamsIn(t, env, app, "stack", "stop", "--name", "dev", "--grace", "2s")
	var res initJSON
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Stack.State != "running" || res.EnvFile == nil {
		t.Fatalf("init with the server: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(app, ".env.loams")); err != nil {
		t.Error(err)
	}
}

// The same at a terminal: init asks before each step, and the answer yes
// to all gets as far as without a server.
func TestInitWithoutServerAtATerminal(t *testing.T) {
	t.Parallel()
	env, homeDir, app := newcomer(t)
	p := startTTY(t, env, app, "init")
	for _, qa := range [][2]string{{"Create the profile default", "y"}, {"Bind this project to stack dev in", "y"}, {"Create and start the stack dev?", "y"},
		{"Look up the latest release online?", "n"}, // asked before any network (issue 28)
		{"Register `loams mcp serve` with cursor", "y"}} {
		p.waitFor(t, qa[0])
		p.send(t, qa[1]+"\r")
	}
	code := p.wait()
	out := p.output()
	if code != 4 || !strings.Contains(out, "stack:    failed: no Loams server found: set LOAMS_SERVER_BINARY") ||
		!strings.Contains(out, "error: no Loams server binary found") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "agents:   done: cursor installed") {
		t.Errorf("summary:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(homeDir, ".cursor", "mcp.json")); err != nil {
		t.Error(err)
	}
}

// Ctrl-C at a question ends init at once with 130: no Enter needed, and
// nothing after the question is done.
func TestCtrlCAtInitQuestion(t *testing.T) {
	t.Parallel()
	env, _, app := newcomer(t)
	p := startTTY(t, env, app, "init")
	p.waitFor(t, "[Y/n]")
	code, took := p.interrupt(t)
	if code != 130 || took > time.Second {
		t.Fatalf("exit %d after %s, want 130 within a second:\n%s", code, took, p.output())
	}
	if _, err := os.Stat(filepath.Join(envValue(env, "LOAMS_HOME"), "config.toml")); err == nil {
		t.Error("the profile was written after Ctrl-C at its question")
	}
}

// Every question is read the same way: Ctrl-C at stack delete's ends it
// at once too, and deletes nothing.
func TestCtrlCAtDeleteQuestion(t *testing.T) {
	t.Parallel()
	env, _, app := newcomer(t)
	env = append(env, "LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testkit/testserver"))
	if _, errOut, code := loamsIn(t, append(env, "CI=true"), app, "stack", "create", "--name", "dev", "--no-start", "--port-base", portBase(t)); code != 0 {
		t.Fatal(errOut)
	}
	p := startTTY(t, env, app, "stack", "delete", "--name", "dev")
	p.waitFor(t, "[y/N]")
	if code, took := p.interrupt(t); code != 130 || took > time.Second {
		t.Fatalf("exit %d after %s, want 130 within a second:\n%s", code, took, p.output())
	}
	if _, err := os.Stat(filepath.Join(envValue(env, "LOAMS_HOME"), "stacks", "dev", "stack.toml")); err != nil {
		t.Errorf("the stack is gone after Ctrl-C at the question: %v", err)
	}
}

// Ctrl-C while a new stack's server starts (stack create, and init's
// stack step) ends with 130 within a second, stops the server, leaves no
// stack; the same command run again works.
func TestCtrlCWhileCreatingAStack(t *testing.T) {
	t.Parallel()
	for _, argv := range [][]string{{"stack", "create", "--name", "dev", "--port-base", portBase(t)}, {"init", "--yes", "--no-agent", "--port-base", portBase(t)}} {
		t.Run(argv[0], func(t *testing.T) {
			t.Parallel()
			env, _, app := newcomer(t)
			server := testbin.Build(t, "./internal/testkit/testserver")
			slow := append(env, "LOAMS_SERVER_BINARY="+server, "TESTSERVER_READY_DELAY=1h")
			dir := filepath.Join(envValue(env, "LOAMS_HOME"), "stacks", "dev")
			p := startTTY(t, slow, app, argv...)
			// Should the test fail half-way, no server is left running.
			defer loamsIn(t, append(env, "CI=true"), app, "stack", "stop", "--name", "dev", "--grace", "2s")
			pid := serverPid(t, p, filepath.Join(dir, "server.pid"))
			code, took := p.interrupt(t)
			if code != 130 || took > time.Second {
				t.Fatalf("exit %d after %s, want 130 within a second:\n%s", code, took, p.output())
			}
			if !gone(pid) {
				t.Errorf("the server (pid %d) outlived the interrupted %s", pid, argv[0])
			}
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("%s is left behind", dir)
			}
			env = append(env, "LOAMS_SERVER_BINARY="+server, "CI=true")
			_, errOut, code := loamsIn(t, env, app, argv...)
			if code != 0 {
				t.Errorf("%v again: exit %d\n%s", argv, code, errOut)
			}
		})
	}
}

// Ctrl-C while init starts a stack that was stopped stops the server it
// started; the stack itself, made before, stays.
func TestCtrlCWhileInitStartsAStack(t *testing.T) {
	t.Parallel()
	env, _, app := newcomer(t)
	env = append(env, "LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testkit/testserver"))
	if _, errOut, code := loamsIn(t, append(env, "CI=true"), app, "stack", "create", "--name", "dev", "--no-start", "--port-base", portBase(t)); code != 0 {
		t.Fatal(errOut)
	}
	defer loamsIn(t, append(env, "CI=true"), app, "stack", "stop", "--name", "dev", "--grace", "2s")
	dir := filepath.Join(envValue(env, "LOAMS_HOME"), "stacks", "dev")
	p := startTTY(t, append(env, "TESTSERVER_READY_DELAY=1h"), app, "init", "--yes", "--no-agent")
	pid := serverPid(t, p, filepath.Join(dir, "server.pid"))
	if code, took := p.interrupt(t); code != 130 || took > time.Second {
		t.Fatalf("exit %d after %s, want 130 within a second:\n%s", code, took, p.output())
	}
	if !gone(pid) {
		t.Errorf("the server (pid %d) outlived the interrupted init", pid)
	}
	if _, err := os.Stat(filepath.Join(dir, "stack.toml")); err != nil {
		t.Errorf("the stack made before init is gone: %v", err)
	}
}

// serverPid waits for the starting server's pid file.
func serverPid(t *testing.T, p *ttyProc, path string) int {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		var rec struct{ PID int }
		if data, err := os.ReadFile(path); err == nil && json.Unmarshal(data, &rec) == nil && rec.PID > 0 {
			return rec.PID
		}
		select {
		case <-p.exited:
			t.Fatalf("loams ended before the server started:\n%s", p.output())
		case <-tick.C:
		}
	}
}
