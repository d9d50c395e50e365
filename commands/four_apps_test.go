package commands

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/workspace"
)

// Issue 28, done-when: four apps on one LOAMS_HOME — bound, unbound, not a
// git repository, a monorepo subdirectory with no marker — seen from the
// built CLI and from `loams mcp serve` started in each. Both faces name the
// same target; the unbound ones read the profile's default_stack (and say
// so) but nothing of another app's stack is written into them.
func TestFourAppsOnOneHome(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the apps are git repositories")
	}
	homeDir, _ := filepath.EvalSymlinks(t.TempDir())
	env := cliEnv(t, "HOME="+homeDir)
	// nodeapp has no mcp engine: its HTTP entry (loams-nodeapp) would fail
	// project_agents, since the stand-in serves no MCP and the entry
	// carries no key; doctor here checks the stdio entry.
	for _, s := range []struct{ name, base string }{{"nodeapp", portBase(t)}, {"mono", portBase(t)}} {
		if _, errOut, code := loams(t, env, "stack", "create", "--name", s.name, "--port-base", s.base, "--no-start",
			"--engines", "native,flight-sql,qdrant,es"); code != 0 {
			t.Fatalf("create %s: %s", s.name, errOut)
		}
	}
	// The first stack made became the profile's default_stack.
	if out, _, _ := loams(t, env, "configure", "get", "default_stack"); strings.TrimSpace(out) != "nodeapp" {
		t.Fatalf("default_stack: %q", out)
	}
	mk := func(rel, name, content string) {
		p := filepath.Join(homeDir, rel, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, repo := range []string{"nodeapp", "pyapp", "repo"} {
		gitIn(t, homeDir, "init", "-q", repo)
	}
	mk("nodeapp", "package.json", "{}\n")
	mk("nodeapp", "loams.toml", "[dev]\nstack = \"nodeapp\"\n")
	mk("pyapp", "pyproject.toml", "[project]\nname = \"pyapp\"\n")
	mk("plain", "package.json", "{}\n")
	mk("repo/app", "loams.toml", "[dev]\nstack = \"mono\"\n")
	os.MkdirAll(filepath.Join(homeDir, "repo", "app", "src"), 0o755)

	// A careful user runs the bound apps' stacks, and has put a
	// project-scope agent entry in nodeapp: doctor checks it there only.
	for _, s := range []string{"nodeapp", "mono"} {
		if _, errOut, code := loams(t, env, "stack", "start", s); code != 0 {
			t.Fatalf("start %s: %s", s, errOut)
		}
		t.Cleanup(func() { loams(t, env, "stack", "stop", s, "--grace", "2s") })
	}
	if _, errOut, code := loamsIn(t, append(env, "PATH=/nonexistent"), filepath.Join(homeDir, "nodeapp"),
		"mcp", "install", "--agent", "claude-code", "--scope", "project"); code != 0 {
		t.Fatalf("mcp install in nodeapp: %s", errOut)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, app := range []struct {
		name, dir string
		want      workspace.Target
	}{
		{"bound", "nodeapp", workspace.Target{Stack: "nodeapp", Source: workspace.FromManifest, Project: filepath.Join(homeDir, "nodeapp")}},
		{"unbound", "pyapp", workspace.Target{Stack: "nodeapp", Source: workspace.FromDefaultStack, Project: filepath.Join(homeDir, "pyapp"), Unbound: true}},
		{"not a git repository", "plain", workspace.Target{Stack: "nodeapp", Source: workspace.FromDefaultStack, Project: filepath.Join(homeDir, "plain"), Unbound: true}},
		{"monorepo subdirectory without a marker", "repo/app/src", workspace.Target{Stack: "mono", Source: workspace.FromManifest, Project: filepath.Join(homeDir, "repo", "app")}},
	} {
		t.Run(app.name, func(t *testing.T) {
			dir := filepath.Join(homeDir, app.dir)
			defer doctorIsClean(t, env, dir, app.want, filepath.Join(homeDir, "nodeapp", ".mcp.json"))
			out, errOut, code := loamsIn(t, env, dir, "-o", "json", "stack", "describe")
			var cli struct{ Target workspace.Target }
			if code != 0 || json.Unmarshal([]byte(out), &cli) != nil || cli.Target != app.want {
				t.Fatalf("CLI describe: exit %d %s %s; want %+v", code, out, errOut, app.want)
			}
			session, _ := mcpSession(t, ctx, env, dir)
			defer session.Close()
			call := func(tool string) (map[string]any, bool) {
				res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
				if err != nil {
					t.Fatal(err)
				}
				raw, _ := json.Marshal(res.StructuredContent)
				var m map[string]any
				json.Unmarshal(raw, &m)
				return m, res.IsError
			}
			st, _ := call("stack_status")
			raw, _ := json.Marshal(st["target"])
			var agent workspace.Target
			if json.Unmarshal(raw, &agent) != nil || agent != app.want {
				t.Fatalf("MCP stack_status target: %s; want %+v", raw, app.want)
			}

			// Writes: the CLI, then the agent.
			out, errOut, code = loamsIn(t, env, dir, "-o", "json", "env", "export", "--write", ".env.loams")
			res, isErr := call("env_export")
			if app.want.Unbound {
				if code != 3 || !strings.Contains(errOut, `"project_unbound"`) || !strings.Contains(errOut, app.want.Project) {
					t.Errorf("CLI env export in an unbound project: exit %d %s %s", code, out, errOut)
				}
				if !isErr || res["error"] != "project_unbound" || !strings.Contains(res["hint"].(string), `call stack_create with {"name": "`) {
					t.Errorf("MCP env_export in an unbound project: %v", res)
				}
				if _, err := os.Stat(filepath.Join(app.want.Project, ".env.loams")); err == nil {
					t.Errorf("another app's stack was written into %s", app.want.Project)
				}
				// A read-only verb still works and says why; an action does not.
				if _, errOut, code := loamsIn(t, env, dir, "stack", "stop"); code != 3 || !strings.Contains(errOut, "loams init") {
					t.Errorf("stack stop without a name: exit %d %s", code, errOut)
				}
				return
			}
			var wrote struct{ Path string }
			if code != 0 || json.Unmarshal([]byte(out), &wrote) != nil || isErr || res["path"] != wrote.Path {
				t.Fatalf("env export: CLI exit %d %s %s; MCP %v", code, out, errOut, res)
			}
			// Beside the loams.toml that chose the stack (in the monorepo,
			// repo/app, not the repository's root where the next app's
			// export would collide with it), where doctor looks.
			if want := filepath.Join(app.want.Project, ".env.loams"); wrote.Path != want {
				t.Errorf("env export wrote %s, want %s", wrote.Path, want)
			}
			if data, _ := os.ReadFile(wrote.Path); !strings.Contains(string(data), "LOAMS_STACK="+app.want.Stack+"\n") {
				t.Errorf("%s holds:\n%s", wrote.Path, data)
			}
		})
	}
}

// doctorIsClean runs `loams doctor -o json` in dir: exit 0 and no check
// failed. The only warning allowed is an unbound project's
// project_binding (project.md: reads there follow default_stack, but
// env export and stack start refuse with project_unbound until it is
// bound, so doctor names the one-line fix without failing). A bound
// project's binding, stack and .env.loams pass. project_agents passes in
// nodeapp, whose .mcp.json has the entry, and is info elsewhere: no other
// app's row names nodeapp's config.
func doctorIsClean(t *testing.T, env []string, dir string, want workspace.Target, nodeAgents string) {
	t.Helper()
	out, errOut, code := loamsIn(t, env, dir, "doctor", "-o", "json")
	var d struct{ Checks []doctorCheck }
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != 0 {
		t.Errorf("doctor in %s: exit %d %v\n%s\n%s", dir, code, err, out, errOut)
	}
	status := map[string]string{}
	for _, c := range d.Checks {
		status[c.Name] = c.Status
		switch {
		case c.Name == "project_binding" && want.Unbound:
			if c.Status != checkWarn || !strings.Contains(c.Message, want.Project) {
				t.Errorf("doctor in the unbound %s: %+v", dir, c)
			}
		case c.Name == "project_agents" && filepath.Dir(nodeAgents) == want.Project:
			if c.Status != checkPass || !strings.Contains(c.Message, "lists") || !strings.Contains(c.Message, nodeAgents) {
				t.Errorf("doctor in %s, project_agents: %+v", dir, c)
			}
		case c.Name == "project_agents":
			if c.Status != checkInfo {
				t.Errorf("doctor in %s, project_agents: %+v", dir, c)
			}
		case c.Status != checkPass:
			t.Errorf("doctor in %s: %+v", dir, c)
		}
		if filepath.Dir(nodeAgents) != want.Project && strings.Contains(c.Message+c.Fix, nodeAgents) {
			t.Errorf("doctor in %s reports nodeapp's agent entry: %+v", dir, c)
		}
	}
	names := []string{"project_binding", "project_agents"}
	if !want.Unbound {
		names = append(names, "project_stack", "project_env")
	}
	for _, n := range names {
		if status[n] == "" {
			t.Errorf("doctor in %s has no %s row: %v", dir, n, status)
		}
	}
}

// `loams init` inside a project binds it and leaves the profile's
// default_stack (another app's) alone; `stack delete` unsets a
// default_stack naming the deleted stack, and says so.
func TestInitInAProjectKeepsTheDefaultAndDeleteForgetsIt(t *testing.T) {
	t.Parallel()
	homeDir, _ := filepath.EvalSymlinks(t.TempDir())
	env := cliEnv(t, "HOME="+homeDir)
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "nodeapp", "--port-base", portBase(t), "--no-start"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	proj := filepath.Join(homeDir, "pyapp")
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "requirements.txt"), []byte("flask\n"), 0o644)
	_, errOut, code := loamsIn(t, env, proj, "init", "--yes", "--no-agent", "--port-base", portBase(t))
	t.Cleanup(func() { loams(t, env, "stack", "stop", "pyapp", "--grace", "2s") })
	if code != 0 {
		t.Fatalf("init: exit %d %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "loams.toml")); !strings.Contains(string(b), `stack = "pyapp"`) {
		t.Fatalf("init did not bind the project:\n%s", b)
	}
	if out, _, _ := loams(t, env, "configure", "get", "default_stack"); strings.TrimSpace(out) != "nodeapp" {
		t.Fatalf("init in a project changed default_stack to %q", out)
	}
	out, errOut, code := loams(t, env, "-o", "json", "stack", "delete", "nodeapp", "--yes")
	if code != 0 || !strings.Contains(out, `"default_stack_unset": [`) || !strings.Contains(out, `"default"`) {
		t.Fatalf("delete: exit %d %s %s", code, out, errOut)
	}
	if out, _, _ := loams(t, env, "configure", "get", "default_stack"); strings.TrimSpace(out) != "" {
		t.Fatalf("default_stack still names the deleted stack: %q", out)
	}
	if out, _, code := loams(t, env, "stack", "delete", "pyapp", "--yes"); code != 0 || !strings.Contains(out, "pyapp") || strings.Contains(out, "default_stack") {
		t.Errorf("delete of a stack no profile names: %d %s", code, out)
	}
}

// Issue 28: in a bound project, stack create and stack delete take the
// stack loams.toml names; elsewhere they still want a name (never
// default_stack: creating or deleting by omission is not a default).
func TestCreateAndDeleteInABoundProjectNeedNoName(t *testing.T) {
	t.Parallel()
	homeDir, _ := filepath.EvalSymlinks(t.TempDir())
	env := cliEnv(t, "HOME="+homeDir)
	bound, unbound := filepath.Join(homeDir, "nodeapp"), filepath.Join(homeDir, "pyapp")
	for _, d := range []string{bound, unbound} {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "package.json"), []byte("{}\n"), 0o644)
	}
	os.WriteFile(filepath.Join(bound, "loams.toml"), []byte("[dev]\nstack = \"nodeapp\"\n"), 0o644)
	out, errOut, code := loamsIn(t, env, bound, "-o", "json", "stack", "create", "--no-start", "--port-base", portBase(t))
	if code != 0 || !strings.Contains(out, `"name": "nodeapp"`) {
		t.Fatalf("create in a bound project: exit %d %s %s", code, out, errOut)
	}
	if _, errOut, code := loamsIn(t, env, unbound, "stack", "create", "--no-start"); code != 2 || !strings.Contains(errOut, "loams stack create pyapp") {
		t.Errorf("create in an unbound project: exit %d %s", code, errOut)
	}
	if _, errOut, code := loamsIn(t, env, unbound, "stack", "delete", "--yes"); code != 2 || !strings.Contains(errOut, "needs a stack name") {
		t.Errorf("delete in an unbound project (nodeapp is the only stack): exit %d %s", code, errOut)
	}
	if out, errOut, code := loamsIn(t, env, bound, "-o", "json", "stack", "delete", "--yes"); code != 0 || !strings.Contains(out, `"name": "nodeapp"`) {
		t.Fatalf("delete in a bound project: exit %d %s %s", code, out, errOut)
	}
}

// In a monorepo app whose loams.toml sits below the repository's only
// marker (repo/app/loams.toml, repo/.git), init run in repo/app/src keeps
// that binding: it wrote a second loams.toml at repo/ and .env.loams there,
// where neither the app nor doctor looks.
func TestInitInAMonorepoAppKeepsItsLoamsToml(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the monorepo is a git repository")
	}
	homeDir, _ := filepath.EvalSymlinks(t.TempDir())
	env := cliEnv(t, "HOME="+homeDir)
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "mono", "--port-base", portBase(t), "--no-start"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	t.Cleanup(func() {
		loams(t, env, "stack", "stop", "mono", "--grace", "2s")
		loams(t, env, "stack", "stop", "repo", "--grace", "2s") // the stack init made for the root, before
	})
	gitIn(t, homeDir, "init", "-q", "repo")
	app := filepath.Join(homeDir, "repo", "app")
	os.MkdirAll(filepath.Join(app, "src"), 0o755)
	os.WriteFile(filepath.Join(app, "loams.toml"), []byte("[dev]\nstack = \"mono\"\n"), 0o644)
	out, errOut, code := loamsIn(t, env, filepath.Join(app, "src"), "-o", "json", "init", "--yes", "--no-agent")
	if code != 0 {
		t.Fatalf("init: exit %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(homeDir, "repo", "loams.toml")); err == nil {
		t.Errorf("init bound the repository's root too:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(homeDir, "repo", ".env.loams")); err == nil {
		t.Errorf("init wrote .env.loams at the repository's root:\n%s", out)
	}
	if b, _ := os.ReadFile(filepath.Join(app, ".env.loams")); !strings.Contains(string(b), "LOAMS_STACK=mono\n") {
		t.Errorf("%s/.env.loams holds:\n%s\ninit said: %s", app, b, out)
	}
}
