package commands

import (
	"os"

	"github.com/charmbracelet/lipgloss"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/workspace"
)

// Workspace is this invocation's one resolver of "which stack, which
// endpoint, which key, which profile" (project.md). It is built on first
// use from the global flags and the working (or --project-dir) directory.
func (f *Factory) Workspace() (*workspace.Workspace, error) {
	if f.ws != nil {
		return f.ws, nil
	}
	h, err := f.Home()
	if err != nil {
		return nil, err
	}
	// --project-dir, else (workspace.Open) $CLAUDE_PROJECT_DIR, else here.
	dir := f.Dir
	if dir == "" && f.projectDir == "" {
		if dir, err = os.Getwd(); err != nil {
			dir = ""
		}
	}
	profile := ""
	if f.Globals.ProfileExplicit {
		profile = f.Globals.Profile
	}
	f.ws = workspace.Open(workspace.Selection{ProjectDir: f.projectDir, Cwd: dir, Stack: f.Globals.Stack,
		Endpoint: f.Globals.Endpoint, Profile: profile},
		workspace.Env{Home: h, Getenv: f.Getenv, Secrets: f.SecretStore, ProfileKeys: f.ProfileKeys,
			Supervisor: f.Supervisor, Managed: managedBy(f.autostart())})
	f.ws.MakeWorktreeStack = f.makeWorktreeStack // asks at a terminal first (worktree_stack.go)
	// warn says it on stderr, or inside the JSON document in json mode.
	// Both decide at the call: the workspace may be built before the
	// output format is known (resolveGlobals reads the profile's format).
	f.ws.Warn = func(msg string) { f.warn("%s", msg) }
	if f.CanPrompt() { // what loams.toml alone may not decide, a person may (workspace/consent.go)
		f.ws.Confirm = func(q string) (bool, error) { return f.askYes(q, false) }
	}
	f.ws.Notice = func(msg string) {
		if !f.JSON() {
			f.say("%s", msg)
		}
	}
	return f.ws, nil
}

// useProjectDir makes --project-dir the directory the project (and its
// loams.toml) is looked for from.
func (f *Factory) useProjectDir(dir string) {
	if dir != "" && dir != f.projectDir {
		f.projectDir, f.ws = dir, nil
	}
}

// stackTarget is the stack a verb acts on: name when given, else the
// target rule. Table mode says where an implicit choice came from.
func (f *Factory) stackTarget(name string) (workspace.Target, error) {
	return f.target(name, (*workspace.Workspace).Stack)
}

// actingTarget is stackTarget for a verb that acts for the project (stack
// start/stop without a name): an unbound project needs a choice.
func (f *Factory) actingTarget(name string) (workspace.Target, error) {
	return f.target(name, (*workspace.Workspace).ActOn)
}

// startTarget is actingTarget for a verb that starts the stack
// (workspace.ToStart: consent, a worktree's own stack).
func (f *Factory) startTarget(name string) (workspace.Target, error) {
	return f.target(name, (*workspace.Workspace).ToStart)
}

// target asks the workspace's rule resolve and says what it chose.
func (f *Factory) target(name string, resolve func(*workspace.Workspace, string) (workspace.Target, error)) (workspace.Target, error) {
	ws, err := f.Workspace()
	if err != nil {
		return workspace.Target{}, err
	}
	t, err := resolve(ws, name)
	if err != nil {
		return t, err
	}
	f.sayTarget(t)
	return t, nil
}

// stackName is stackTarget's name, for verbs whose result is not a target.
func (f *Factory) stackName(name string) (string, error) {
	t, err := f.stackTarget(name)
	return t.Stack, err
}

// sayTarget is the one dim stderr line of table mode when the target was
// not named in the command itself: a person in the Python app sees that
// `loams stack stop` meant pyapp, and why. Scripts (text, json) and
// --quiet do without it.
func (f *Factory) sayTarget(t workspace.Target) {
	if f.Globals.Output != output.Table || f.Globals.Quiet || t.Explicit() {
		return
	}
	st := lipgloss.NewRenderer(f.IO.ErrOut).NewStyle()
	if f.IO.StderrTTY && f.Getenv("NO_COLOR") == "" && f.Getenv("TERM") != "dumb" {
		st = st.Faint(true)
	}
	f.IO.Say("%s", st.Render(t.Line()))
}

// profileName is the active profile's name by the workspace's rule
// (--profile > LOAMS_PROFILE > loams.toml > default), and whether it was
// named (then it must exist): the profile every verb reads and writes.
func (f *Factory) profileName() (string, bool, error) {
	ws, err := f.Workspace()
	if err != nil {
		return "", false, err
	}
	return ws.ProfileName()
}

// profileFromWorkspace loads the active profile through the target rule
// (--profile > LOAMS_PROFILE > loams.toml's [dev] profile > default).
func (f *Factory) profileFromWorkspace() (config.Profile, error) {
	ws, err := f.Workspace()
	if err != nil {
		return config.Profile{}, err
	}
	return ws.Profile()
}

func userAgent() string { return "loams/" + buildinfo.Get().Version }

// envDir is where a CLI command puts .env.loams (env export, init): the
// project the workspace was opened for (--project-dir, $CLAUDE_PROJECT_DIR),
// else beside the loams.toml that chose the stack (Workspace.EnvDir), the
// same for both faces.
func (f *Factory) envDir(flag string) (string, error) {
	f.useProjectDir(flag)
	ws, err := f.Workspace()
	if err != nil {
		return "", err
	}
	return ws.EnvDir()
}
