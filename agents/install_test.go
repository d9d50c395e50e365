package agents

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
)

// Set LOAMS_UPDATE_GOLDEN=1 to rewrite testdata/*/*.golden.
var update = os.Getenv("LOAMS_UPDATE_GOLDEN") != ""

const fakeLoams = "/opt/loams/bin/loams"

type world struct {
	root, home, project, bin string
	env                      Env
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj"), bin: filepath.Join(root, "bin")}
	for _, d := range []string{w.home, w.project, w.bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vars := map[string]string{"HOME": w.home, "PATH": w.bin}
	w.env = Env{
		Getenv:     func(k string) string { return vars[k] },
		ProjectDir: w.project,
		Loams:      home.Home{Dir: filepath.Join(root, "loams-home")},
		Executable: fakeLoams,
		Now:        func() time.Time { return time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC) },
	}
	return w
}

// configPath is where each case's file lives.
func (w *world) configPath(agent, scope string) string {
	a, _, _ := Lookup(agent, scope)
	loc, _ := w.env.location(a, scope)
	return loc.Path
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with LOAMS_UPDATE_GOLDEN=1)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fileCases are every host and scope: without the host's CLI on PATH,
// loams writes each as a file (with it, cli_test.go). Claude Code's local
// scope lives under projects.<project dir>, a path that differs in every
// test: TestClaudeCodeWithoutCLIEditsItsFile covers it.
var fileCases = func() []struct{ agent, scope string } {
	var out []struct{ agent, scope string }
	for _, a := range Agents() {
		for _, s := range a.Scopes {
			if !s.Nested {
				out = append(out, struct{ agent, scope string }{a.Name, s.Name})
			}
		}
	}
	return out
}()

func TestInstallNewFile(t *testing.T) {
	t.Parallel()
	for _, c := range fileCases {
		w := newWorld(t)
		ctx := context.Background()
		res, err := Install(ctx, w.env, InstallRequest{Agent: c.agent, Scope: c.scope})
		if err != nil {
			t.Fatalf("%s/%s: %v", c.agent, c.scope, err)
		}
		path := w.configPath(c.agent, c.scope)
		if res.Via != "file" || res.Path != path || !res.Changed {
			t.Errorf("%s/%s: %+v", c.agent, c.scope, res)
		}
		got := mustRead(t, path)
		golden(t, c.agent+"-"+c.scope+"/new.golden", got)
		fi, _ := os.Stat(path)
		wantMode := os.FileMode(0o600)
		if c.scope == "project" {
			wantMode = 0o644
		}
		if fi.Mode().Perm() != wantMode {
			t.Errorf("%s/%s: mode %v, want %v", c.agent, c.scope, fi.Mode().Perm(), wantMode)
		}
		// Re-install: same bytes, nothing changed.
		res, err = Install(ctx, w.env, InstallRequest{Agent: c.agent, Scope: c.scope})
		if err != nil || res.Changed || !bytes.Equal(mustRead(t, path), got) {
			t.Errorf("%s/%s: re-install changed the file (%v, %+v)", c.agent, c.scope, err, res)
		}
		if _, err := os.Stat(path + ".loams-backup"); err == nil {
			t.Errorf("%s/%s: backup of a file that did not exist", c.agent, c.scope)
		}
		// Uninstall: we created the file, so it goes away.
		if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: c.agent}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s/%s: file we created survived uninstall", c.agent, c.scope)
		}
	}
}

func TestInstallKeepsForeignEntries(t *testing.T) {
	t.Parallel()
	for _, c := range fileCases {
		w := newWorld(t)
		ctx := context.Background()
		dir := c.agent + "-" + c.scope
		original := mustRead(t, filepath.Join("testdata", dir, "foreign.in"))
		path := w.configPath(c.agent, c.scope)
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, original, 0o640)

		dry, err := Install(ctx, w.env, InstallRequest{Agent: c.agent, Scope: c.scope, Stack: "dev", MCPURL: "http://127.0.0.1:8083/mcp", DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(mustRead(t, path), original) || !strings.Contains(dry.Diff, "+") {
			t.Errorf("%s: dry run wrote, or printed no diff: %q", dir, dry.Diff)
		}
		if _, err := os.Stat(w.env.Loams.MCPInstalls()); err == nil {
			t.Errorf("%s: dry run recorded an install", dir)
		}
		golden(t, dir+"/http.diff.golden", []byte(strings.ReplaceAll(dry.Diff, path, "CONFIG")))

		if _, err := Install(ctx, w.env, InstallRequest{Agent: c.agent, Scope: c.scope, Stack: "dev", MCPURL: "http://127.0.0.1:8083/mcp"}); err != nil {
			t.Fatal(err)
		}
		installed := mustRead(t, path)
		golden(t, dir+"/foreign.golden", installed)
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode changed to %v", dir, fi.Mode().Perm())
		}
		if got := mustRead(t, path+".loams-backup"); !bytes.Equal(got, original) {
			t.Errorf("%s: backup is not the original", dir)
		}
		// Re-install is identical and leaves the first backup alone.
		os.WriteFile(path+".loams-backup", []byte("first backup"), 0o600)
		if res, err := Install(ctx, w.env, InstallRequest{Agent: c.agent, Scope: c.scope, Stack: "dev", MCPURL: "http://127.0.0.1:8083/mcp"}); err != nil || res.Changed {
			t.Errorf("%s: re-install: %v %+v", dir, err, res)
		}
		if !bytes.Equal(mustRead(t, path), installed) || string(mustRead(t, path+".loams-backup")) != "first backup" {
			t.Errorf("%s: re-install changed the file or the backup", dir)
		}
		os.WriteFile(path+".loams-backup", original, 0o600)

		// Uninstall with nobody else's edits: the original bytes come back.
		if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: c.agent, Scope: c.scope}); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, path); !bytes.Equal(got, original) {
			t.Errorf("%s: uninstall did not restore the original:\n%s", dir, got)
		}
	}
}

func TestUninstallAfterForeignEditsRemovesOnlyOurs(t *testing.T) {
	t.Parallel()
	for _, c := range fileCases {
		w := newWorld(t)
		ctx := context.Background()
		dir := c.agent + "-" + c.scope
		path := w.configPath(c.agent, c.scope)
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, mustRead(t, filepath.Join("testdata", dir, "foreign.in")), 0o600)
		if _, err := Install(ctx, w.env, InstallRequest{Agent: c.agent, Scope: c.scope}); err != nil {
			t.Fatal(err)
		}
		// The user changes something else after us.
		edited := bytes.Replace(mustRead(t, path), []byte(`"`), []byte(`"`), 1)
		if c.agent == "codex" {
			edited = append(edited, "\n[profiles.slow]\nmodel = \"o3\"\n"...)
		} else {
			edited = bytes.Replace(edited, []byte("{"), []byte("{\n  \"added_later\": 1,"), 1)
		}
		os.WriteFile(path, edited, 0o600)
		if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: c.agent}); err != nil {
			t.Fatal(err)
		}
		got := mustRead(t, path)
		golden(t, dir+"/edited-uninstalled.golden", got)
		if bytes.Contains(got, []byte(fakeLoams)) {
			t.Errorf("%s: our entry survived", dir)
		}
	}
}

func TestUnparseableIsRefused(t *testing.T) {
	t.Parallel()
	for _, c := range fileCases {
		w := newWorld(t)
		dir := c.agent + "-" + c.scope
		path := w.configPath(c.agent, c.scope)
		broken := mustRead(t, filepath.Join("testdata", dir, "broken.in"))
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, broken, 0o600)
		_, err := Install(context.Background(), w.env, InstallRequest{Agent: c.agent, Scope: c.scope})
		if !errs.Is(err, errs.ConfigUnparseable) {
			t.Errorf("%s: got %v, want config_unparseable", dir, err)
		}
		if !bytes.Equal(mustRead(t, path), broken) {
			t.Errorf("%s: broken file was rewritten", dir)
		}
		if _, err := os.Stat(path + ".loams-backup"); err == nil {
			t.Errorf("%s: backup made for a refused file", dir)
		}
	}
}

func TestScopesAndAgents(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, c := range []struct {
		agent, scope string
		want         errs.Code
	}{
		{"vim", "", errs.Usage}, {"codex", "project", errs.Usage}, {"windsurf", "local", errs.Usage},
	} {
		_, err := Install(context.Background(), w.env, InstallRequest{Agent: c.agent, Scope: c.scope})
		if !errs.Is(err, c.want) {
			t.Errorf("%s/%s: got %v, want %s", c.agent, c.scope, err, c.want)
		}
	}
}

// Issue 28: uninstall removes the directory install created (~/.codex),
// so a later init does not "detect" Codex; a directory that was there,
// or that holds other files by then, stays.
func TestUninstallRemovesTheDirectoryInstallCreated(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	codexDir := filepath.Join(w.home, ".codex")
	if _, err := Install(ctx, w.env, InstallRequest{Agent: "codex", Scope: "user"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(codexDir); err != nil {
		t.Fatalf("install made no %s: %v", codexDir, err)
	}
	if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: "codex"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(codexDir); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s: %v", codexDir, err)
	}
	// Another file in it by then (Codex itself ran): the directory stays.
	if _, err := Install(ctx, w.env, InstallRequest{Agent: "codex", Scope: "user"}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(codexDir, "history.jsonl"), []byte("{}\n"), 0o600)
	if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: "codex"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(codexDir, "history.jsonl")); err != nil {
		t.Errorf("uninstall removed Codex's own file: %v", err)
	}
}

// Issue 28: an agent loams registered is present for init, even with no
// ~/.claude and no `claude` on PATH (a project's .mcp.json); another
// project's entry does not make it present here.
func TestRecordedAgentIsPresent(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	has := func(env Env) bool {
		for _, a := range env.Present(ctx) {
			if a.Name == "claude-code" {
				return true
			}
		}
		return false
	}
	if has(w.env) {
		t.Fatal("claude-code present before any install")
	}
	if _, err := Install(ctx, w.env, InstallRequest{Agent: "claude-code", Scope: "project"}); err != nil {
		t.Fatal(err)
	}
	if !has(w.env) {
		t.Error("claude-code, registered in this project, is not present")
	}
	other := w.env
	other.ProjectDir = t.TempDir()
	if has(other) {
		t.Error("another project's entry made claude-code present")
	}
}
