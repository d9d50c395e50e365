package agents

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// issue 21: a project file is committed and shared, so its entry runs
// `loams` from each teammate's PATH; a user file keeps this binary's
// absolute path; --absolute-path forces it; without loams on PATH the
// project entry names the absolute path and says why.
func TestProjectEntriesNameLoamsOnPath(t *testing.T) {
	t.Parallel()
	for _, c := range allScopes() {
		w := newWorld(t)
		testbin.WriteExecutable(filepath.Join(w.bin, "loams"), []byte("#!/bin/sh\n"))
		res, err := w.install(t, c.agent, c.scope)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.agent, c.scope, err)
		}
		want := fakeLoams
		if isProject(c.agent, c.scope) {
			want = "loams"
		}
		if res.Command[0] != want || len(res.Notes) != 0 {
			t.Errorf("%s/%s: runs %q (notes %q), want %q", c.agent, c.scope, res.Command, res.Notes, want)
		}
		servers, _ := Location{Path: res.Path, Format: mustAgent(c.agent).Format, Container: w.container(c.agent, c.scope)}.servers()
		if argv, _, _ := storedCommand(servers["loams"]); len(argv) == 0 || argv[0] != want {
			t.Errorf("%s/%s: the file says %q", c.agent, c.scope, argv)
		}
	}
	w := newWorld(t)
	testbin.WriteExecutable(filepath.Join(w.bin, "loams"), []byte("#!/bin/sh\n"))
	res, err := Install(context.Background(), w.env, InstallRequest{Agent: "vscode", AbsolutePath: true})
	if err != nil || res.Command[0] != fakeLoams {
		t.Fatalf("--absolute-path: %v %+v", err, res)
	}
	w = newWorld(t) // no loams on PATH
	res, err = Install(context.Background(), w.env, InstallRequest{Agent: "vscode"})
	if err != nil || res.Command[0] != fakeLoams || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "not on PATH") {
		t.Fatalf("no loams on PATH: %v %+v", err, res)
	}
}

func mustAgent(name string) Agent {
	a, _, _ := Lookup(name, "")
	return a
}

func (w *world) container(agent, scope string) []string {
	loc, _ := w.env.location(mustAgent(agent), scope)
	return loc.Container
}

// doctor: an entry naming `loams` that is not on the PATH the host gives
// its servers fails with that reason and the --absolute-path fix; each
// entry shows its access mode.
func TestDoctorPathAndMode(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	os.WriteFile(filepath.Join(w.project, ".mcp.json"), []byte(`{"mcpServers":{"loams":{"command":"loams","args":["mcp","serve","--read-only"]}}}`), 0o644)
	self, _ := os.Executable()
	os.MkdirAll(filepath.Join(w.project, ".cursor"), 0o755)
	os.WriteFile(filepath.Join(w.project, ".cursor", "mcp.json"), []byte(`{"mcpServers":{"loams":{"command":"`+self+
		`","args":["mcp","serve","--tools","search_docs,env_export"],"env":{"LOAMS_AGENTS_TEST_SERVER":"1"}}}}`), 0o644)
	checks, err := Doctor(context.Background(), w.env)
	if err != nil || len(checks) != 2 {
		t.Fatalf("%v %+v", err, checks)
	}
	for _, c := range checks {
		switch c.Agent {
		case "claude-code":
			if c.Connected || !strings.Contains(c.Warning, "loams is not on the PATH") || !strings.Contains(c.Fix, "--absolute-path") || c.Mode != "read-only" {
				t.Errorf("claude-code: %+v", c)
			}
		case "cursor":
			if !c.Connected || c.Mode != "search_docs,env_export" {
				t.Errorf("cursor: %+v", c)
			}
		}
	}
}

// issue 22: --with-skill writes SKILL.md where the host reads skills,
// records what it wrote, keeps a file the user edited (on re-install and
// on uninstall) and removes an untouched one.
func TestSkillBesideTheEntry(t *testing.T) {
	t.Parallel()
	skill := []byte("---\nname: loams\ndescription: Set up an app with Loams.\n---\n\n# Loams\n")
	for _, c := range allScopes() {
		sc, _ := mustAgent(c.agent).scope(c.scope)
		w := newWorld(t)
		res, err := Install(context.Background(), w.env, InstallRequest{Agent: c.agent, Scope: c.scope, Skill: skill})
		if err != nil {
			t.Fatalf("%s/%s: %v", c.agent, c.scope, err)
		}
		if sc.Skill == nil {
			if res.Skill != nil || len(res.Notes) == 0 {
				t.Errorf("%s/%s: no skill location, yet %+v", c.agent, c.scope, res)
			}
			continue
		}
		path := sc.Skill(w.env)
		if res.Skill == nil || res.Skill.State != "written" || res.Skill.Path != path || !bytes.Equal(mustRead(t, path), skill) {
			t.Fatalf("%s/%s: %+v", c.agent, c.scope, res.Skill)
		}
		if !strings.HasSuffix(path, filepath.Join("skills", "loams", "SKILL.md")) {
			t.Errorf("%s/%s: %s", c.agent, c.scope, path)
		}
		if _, err := Uninstall(context.Background(), w.env, UninstallRequest{Agent: c.agent}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Dir(filepath.Dir(path))); !os.IsNotExist(err) {
			t.Errorf("%s/%s: uninstall left %s, which install created", c.agent, c.scope, filepath.Dir(filepath.Dir(path)))
		}
	}
	// Issue 30: every host that reads skills has a skill location at each
	// of its scopes.
	for _, c := range allScopes() {
		sc, _ := mustAgent(c.agent).scope(c.scope)
		if reads := map[string]bool{"claude-code": c.scope != "local", "codex": true, "copilot-cli": true, "gemini-cli": true,
			"qwen-code": true, "opencode": true}[c.agent]; reads != (sc.Skill != nil) {
			t.Errorf("%s/%s: skill location %v, want one: %v", c.agent, c.scope, sc.Skill != nil, reads)
		}
	}
	// A dry run says what it would do and writes nothing; uninstall keeps
	// a skills folder that held the user's own skills before.
	for _, agent := range []string{"codex", "copilot-cli", "qwen-code"} {
		w := newWorld(t)
		sc, _ := mustAgent(agent).scope("user")
		path := sc.Skill(w.env)
		res, err := Install(context.Background(), w.env, InstallRequest{Agent: agent, Scope: "user", Skill: skill, DryRun: true})
		if err != nil || res.Skill == nil || res.Skill.State != "would write" {
			t.Fatalf("%s dry run: %v %+v", agent, err, res.Skill)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: a dry run wrote %s", agent, path)
		}
		mine := filepath.Join(filepath.Dir(filepath.Dir(path)), "mine", "SKILL.md")
		mkdirs(t, mine)
		os.WriteFile(mine, []byte("---\nname: mine\ndescription: mine\n---\n"), 0o644)
		if _, err := Install(context.Background(), w.env, InstallRequest{Agent: agent, Scope: "user", Skill: skill}); err != nil {
			t.Fatal(err)
		}
		results, err := Uninstall(context.Background(), w.env, UninstallRequest{Agent: agent, DryRun: true})
		if err != nil || results[len(results)-1].Skill.State != "would remove" || !bytes.Equal(mustRead(t, path), skill) {
			t.Fatalf("%s uninstall dry run: %v %+v", agent, err, results)
		}
		if _, err := Uninstall(context.Background(), w.env, UninstallRequest{Agent: agent}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
			t.Errorf("%s: uninstall left %s", agent, filepath.Dir(path))
		}
		if _, err := os.Stat(mine); err != nil {
			t.Errorf("%s: uninstall touched the user's own skill: %v", agent, err)
		}
	}
	// User edits survive a re-install and the uninstall.
	w := newWorld(t)
	req := InstallRequest{Agent: "claude-code", Scope: "project", Skill: skill}
	if _, err := Install(context.Background(), w.env, req); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(w.project, ".claude", "skills", "loams", "SKILL.md")
	edited := append(slices.Clone(skill), "\nOur team uses the stack named shop.\n"...)
	os.WriteFile(path, edited, 0o644)
	req.Skill = append(slices.Clone(skill), "a newer loams\n"...)
	res, err := Install(context.Background(), w.env, req)
	if err != nil || res.Skill.State != "kept" || !strings.Contains(strings.Join(res.Notes, "\n"), "edited since") || !bytes.Equal(mustRead(t, path), edited) {
		t.Fatalf("re-install over an edit: %v %+v", err, res)
	}
	results, err := Uninstall(context.Background(), w.env, UninstallRequest{Agent: "claude-code"})
	if err != nil || !bytes.Equal(mustRead(t, path), edited) {
		t.Fatalf("uninstall: %v", err)
	}
	if last := results[len(results)-1]; last.Skill == nil || last.Skill.State != "kept" {
		t.Errorf("uninstall said %+v", last)
	}
	// An untouched skill of an older loams is updated in place.
	w = newWorld(t)
	req.Skill = skill
	Install(context.Background(), w.env, req)
	req.Skill = append(slices.Clone(skill), "a newer loams\n"...)
	if res, err := Install(context.Background(), w.env, req); err != nil || res.Skill.State != "updated" {
		t.Fatalf("update: %v %+v", err, res)
	}
}

// allScopes is every host and scope in the registry (12 hosts, 21 scopes).
func allScopes() []struct{ agent, scope string } {
	var out []struct{ agent, scope string }
	for _, a := range Agents() {
		for _, s := range a.Scopes {
			out = append(out, struct{ agent, scope string }{a.Name, s.Name})
		}
	}
	return out
}

func isProject(agent, scope string) bool {
	a, _, _ := Lookup(agent, scope)
	s, _ := a.scope(scope)
	return s.Project
}

func mkdirs(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
}
