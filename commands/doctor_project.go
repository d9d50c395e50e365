package commands

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"loams.dev/cli/agents"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/project"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// checkInfo is a row that reports without judging (doctor outside a project).
const checkInfo = "info"

// checkProject looks at the project doctor runs in (or --project-dir): its
// loams.toml binding, that stack running, and its .env.loams written for
// that stack with the stack's current key and ports (project.md). The
// project's agent entries are checked with the agents (checkAgentEntries).
func checkProject(ctx context.Context, env *doctorEnv) []doctorCheck {
	checks := checkProjectBinding(ctx, env)
	if len(checks) == 1 && checks[0].Name == "project" { // no project here
		return checks
	}
	return append(checks, projectAgentChecks(env.projectAgents)...)
}

// checkProjectBinding: loams.toml, its stack, and .env.loams.
func checkProjectBinding(ctx context.Context, env *doctorEnv) []doctorCheck {
	f := env.f
	ws, err := f.Workspace()
	if err != nil {
		return []doctorCheck{failed("project_binding", err)}
	}
	b, err := ws.Binding()
	if err != nil {
		return []doctorCheck{failed("project_binding", err)}
	}
	root := cmp.Or(b.Dir, ws.ProjectRoot())
	if root == "" {
		return []doctorCheck{{Name: "project", Status: checkInfo, Message: "no project found from " + ws.Dir + " (run doctor in your app's directory, or pass --project-dir)"}}
	}
	if b.Path == "" || b.Stack == "" {
		proposed := ws.ProposeFor(root)
		return []doctorCheck{problem(checkWarn, "project_binding", "`loams init --stack "+proposed+"` (or `loams stack create "+proposed+"`) binds it",
			"%s has no loams.toml naming its stack: commands there follow LOAMS_STACK, default_stack or the only stack", root)}
	}
	checks := []doctorCheck{}
	if len(b.Unknown) > 0 {
		checks = append(checks, problem(checkWarn, "project_binding", "remove or fix them in "+b.Path,
			"[dev] in %s has keys loams does not know: %s", b.Path, strings.Join(b.Unknown, ", ")))
	}
	if _, err := stack.Load(ws.Home, b.Stack); err != nil {
		return append(checks, problem(checkFail, "project_binding", "`loams stack create "+b.Stack+"`",
			"%s names stack %s, which does not exist", b.Path, b.Stack))
	}
	checks = append(checks, pass("project_binding", "%s binds this project to stack %s", b.Path, b.Stack))
	checks = append(checks, projectStackCheck(ctx, f, b.Stack))
	return append(checks, projectEnvChecks(ctx, ws, b)...)
}

// projectAgentChecks: each of this project's agent entries starts and
// lists the tools (project.md project_agents). They are checked here only:
// from another directory they are not what its agents read.
func projectAgentChecks(entries []agents.Check) []doctorCheck {
	if len(entries) == 0 {
		return []doctorCheck{{Name: "project_agents", Status: checkInfo,
			Message: "no agent config of this project has a loams entry (`loams mcp install --agent claude-code --scope project` adds one)"}}
	}
	var out []doctorCheck
	for _, c := range entries {
		if c.Connected {
			out = append(out, pass("project_agents", "%s %s (%s scope) starts and lists %d tools (%s)", c.Agent, c.Name, c.Scope, c.Tools, c.Config))
			continue
		}
		out = append(out, problem(checkFail, "project_agents", c.Fix, "%s %s (%s scope): %s (%s)", c.Agent, c.Name, c.Scope, c.Error, c.Config))
	}
	return out
}

func projectStackCheck(ctx context.Context, f *Factory, name string) doctorCheck {
	sv, err := f.Supervisor()
	if err != nil {
		return failed("project_stack", err)
	}
	d, err := sv.Describe(ctx, name)
	if err != nil {
		return failed("project_stack", err)
	}
	if d.State != "running" {
		return problem(checkFail, "project_stack", "`loams stack start "+name+"`", "stack %s is %s", name, d.State)
	}
	return pass("project_stack", "stack %s is running", name)
}

// projectEnvChecks: .env.loams exists, is 0600, is git-ignored, was written
// for the bound stack, and holds its current key and ports. Values are
// compared, never printed.
func projectEnvChecks(ctx context.Context, ws *workspace.Workspace, b workspace.Binding) []doctorCheck {
	path := filepath.Join(b.Dir, ".env.loams")
	rewrite := "`loams env export --write .env.loams` in " + b.Dir
	fi, err := os.Stat(path)
	if err != nil {
		return []doctorCheck{problem(checkWarn, "project_env", rewrite, "%s does not exist: the app has no settings to read", path)}
	}
	var out []doctorCheck
	if fi.Mode().Perm() != 0o600 {
		out = append(out, problem(checkFail, "project_env", "`chmod 600 "+path+"`", "%s is mode %o: it holds the key, others can read it", path, fi.Mode().Perm()))
	}
	if ignored, err := project.Ignored(ctx, b.Dir, path); err == nil && !ignored {
		out = append(out, problem(checkFail, "project_env", "add .env.loams to "+filepath.Join(b.Dir, ".gitignore"), "git would commit %s, which holds the key", path))
	}
	if had, want := envfile.FileTarget(path), "stack "+b.Stack; had != want {
		return append(out, problem(checkFail, "project_env", "`loams env export --write .env.loams --force` in "+b.Dir+" re-points it",
			"%s was written for %s, not %s", path, cmp.Or(had, "no stack loams knows"), want))
	}
	st, err := ws.StackEnv(ctx, b.Stack)
	if err != nil {
		return append(out, failed("project_env", err))
	}
	if stale := staleVars(path, st); len(stale) > 0 {
		return append(out, problem(checkFail, "project_env", rewrite, "%s is out of date for stack %s: %s changed", path, b.Stack, strings.Join(stale, ", ")))
	}
	if len(out) == 0 {
		out = append(out, pass("project_env", "%s holds stack %s's current settings (0600, git-ignored)", path, b.Stack))
	}
	return out
}

// staleVars names the variables whose value in the file differs from the
// stack's (a rotated key, moved ports), comparing the lines loams writes.
func staleVars(path string, st envfile.Stack) []string {
	have, err := os.ReadFile(path)
	if err != nil {
		return []string{"(unreadable)"}
	}
	want := st.Dotenv(buildinfo.Get().Version, time.Time{})
	haveVars, wantVars := dotenvLines(have), dotenvLines(want)
	var stale []string
	for name, line := range wantVars {
		if haveVars[name] != line {
			stale = append(stale, name)
		}
	}
	slices.Sort(stale)
	return stale
}

// dotenvLines maps each NAME= line of a file loams wrote to the whole line.
func dotenvLines(b []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if name, _, ok := strings.Cut(sc.Text(), "="); ok && !strings.HasPrefix(name, "#") {
			out[name] = sc.Text()
		}
	}
	return out
}
