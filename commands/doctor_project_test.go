package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doctor sees the project it runs in: the Node app whose .env.loams
// pointed at a stopped stack passed before (project issue).
func TestDoctorSeesTheProject(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	env := cliEnv(t, "HOME="+home)
	app := filepath.Join(home, "nodeapp")
	os.MkdirAll(app, 0o755)
	os.WriteFile(filepath.Join(app, "package.json"), []byte("{}\n"), 0o644)
	checks := func(dir string, args ...string) map[string]doctorCheck {
		t.Helper()
		out, errOut, _ := loamsIn(t, env, dir, append([]string{"doctor", "-o", "json"}, args...)...)
		var d struct{ Checks []doctorCheck }
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("doctor: %v\n%s\n%s", err, out, errOut)
		}
		m := map[string]doctorCheck{}
		for _, c := range d.Checks {
			if strings.HasPrefix(c.Name, "project") {
				if prev, ok := m[c.Name]; ok && prev.Status == checkFail {
					continue // keep the first failure of a name
				}
				m[c.Name] = c
			}
		}
		return m
	}
	if c := checks(root)["project"]; c.Status != checkInfo || !strings.Contains(c.Message, "no project found") {
		t.Fatalf("outside a project: %+v", c)
	}
	if c := checks(app)["project_binding"]; c.Status != checkWarn || !strings.Contains(c.Fix, "loams init --stack nodeapp") {
		t.Fatalf("unbound project: %+v", c)
	}
	if _, errOut, code := loamsIn(t, env, app, "stack", "create", "nodeapp", "--no-start"); code != 0 {
		t.Fatal(errOut)
	}
	got := checks(app)
	if got["project_binding"].Status != checkPass || got["project_stack"].Status != checkFail ||
		got["project_stack"].Fix != "`loams stack start nodeapp`" || got["project_env"].Status != checkWarn {
		t.Fatalf("bound, stopped, no .env.loams: %+v", got)
	}
	if _, errOut, code := loamsIn(t, env, app, "env", "export", "--write", ".env.loams"); code != 0 {
		t.Fatal(errOut)
	}
	if c := checks(root, "--project-dir", app)["project_env"]; c.Status != checkPass {
		t.Fatalf("fresh .env.loams through --project-dir: %+v", c)
	}
	os.Chmod(filepath.Join(app, ".env.loams"), 0o644)
	if c := checks(app)["project_env"]; c.Status != checkFail || !strings.Contains(c.Fix, "chmod 600") {
		t.Fatalf("loose mode: %+v", c)
	}
	// Another stack's file, as the re-pointed Node app had.
	if _, errOut, code := loamsIn(t, env, root, "stack", "create", "other", "--no-start"); code != 0 {
		t.Fatal(errOut)
	}
	if _, errOut, code := loamsIn(t, env, app, "env", "export", "--stack", "other", "--write", ".env.loams", "--force"); code != 0 {
		t.Fatal(errOut)
	}
	if c := checks(app)["project_env"]; c.Status != checkFail || !strings.Contains(c.Message, "written for stack other, not stack nodeapp") {
		t.Fatalf("file of another stack: %+v", c)
	}
	os.WriteFile(filepath.Join(app, "loams.toml"), []byte("[dev]\nstack = \"gone\"\n"), 0o644)
	if c := checks(app)["project_binding"]; c.Status != checkFail || c.Fix != "`loams stack create gone`" {
		t.Fatalf("binding to a missing stack: %+v", c)
	}
}

// Issue 28: a project-scope agent entry belongs to its project. doctor in
// another directory does not report it (it had said "no longer in
// …/nodeapp/.mcp.json" and exited 5); doctor in the project checks it as
// project_agents: the entry starts and lists the tools.
func TestDoctorChecksProjectAgentsOnlyInTheirProject(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	env := cliEnv(t, "HOME="+home, "PATH=/nonexistent")
	node, py := filepath.Join(home, "nodeapp"), filepath.Join(home, "pyapp")
	for _, app := range []string{node, py} {
		os.MkdirAll(app, 0o755)
		os.WriteFile(filepath.Join(app, "package.json"), []byte("{}\n"), 0o644)
	}
	if _, errOut, code := loamsIn(t, env, node, "mcp", "install", "--agent", "claude-code", "--scope", "project"); code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	doctor := func(dir string) []doctorCheck {
		t.Helper()
		out, errOut, _ := loamsIn(t, env, dir, "doctor", "-o", "json")
		var d struct{ Checks []doctorCheck }
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("doctor: %v\n%s\n%s", err, out, errOut)
		}
		return d.Checks
	}
	for _, c := range doctor(py) {
		if strings.Contains(c.Message+c.Fix, node) {
			t.Errorf("doctor in pyapp reports nodeapp's entry: %+v", c)
		}
		if c.Name == "project_agents" && c.Status != checkInfo {
			t.Errorf("pyapp has no agent entry of its own: %+v", c)
		}
	}
	var found bool
	for _, c := range doctor(node) {
		if c.Name == "project_agents" {
			found = true
			if c.Status != checkPass || !strings.Contains(c.Message, "lists") || !strings.Contains(c.Message, filepath.Join(node, ".mcp.json")) {
				t.Errorf("project_agents in nodeapp: %+v", c)
			}
		}
		if strings.HasPrefix(c.Name, "agent ") && strings.Contains(c.Message, node) {
			t.Errorf("the project's entry is also an agents row: %+v", c)
		}
	}
	if !found {
		t.Error("doctor in nodeapp has no project_agents row")
	}
}
