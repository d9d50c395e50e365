package commands

import (
	"os"
	"sync"
	"time"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// Factory carries what every command needs. One is made per process (or per
// test), so tests run in parallel without package-level state.
type Factory struct {
	IO     *iostreams.IOStreams
	Getenv func(string) string
	Now    func() time.Time
	// Dir is the working directory the project is looked for from; ""
	// means the process's (tests point it away from this repository).
	Dir string
	// Executable is the absolute path of the running loams binary (agent
	// configs name it); tests may point it elsewhere.
	Executable func() (string, error)

	// signalsReady is closed once Main has installed the signal handlers
	// (nil in tests: nothing to wait for).
	signalsReady <-chan struct{}
	// interrupt is closed at the first Ctrl-C or SIGTERM (nil: never), so
	// a question waiting for an answer gives up at once (askLine).
	interrupt <-chan struct{}

	// Globals is filled in by the root command from flags, environment and profile.
	Globals Globals

	// agentsProjectDir stands in for the working directory when mcp
	// install/doctor look for the project (tests; init's --project-dir).
	agentsProjectDir string

	// projectDir is --project-dir of the running command; ws the resolver
	// built from it (factory_workspace.go).
	projectDir string
	ws         *workspace.Workspace
	assumeYes  bool // init --yes: create a worktree's stack without asking (worktree_stack.go)
	// sv is the process's one supervisor; stacks its one store of stack
	// keys (factory_secrets.go).
	sv     *stack.Supervisor
	stacks storeOnce

	// keyringNote makes the "no usable OS keyring" notice once per process.
	keyringNote sync.Once

	// warnings wait here for the json document that carries them.
	warnings warningLog
}

// Globals are the root flags after resolution.
type Globals struct {
	Output          output.Format
	OutputExplicit  bool // --output, -o or LOAMS_OUTPUT was given
	Profile         string
	ProfileExplicit bool
	NoInput         bool
	Quiet           bool
	Verbose         bool
	Color           string // auto | always | never
	Endpoint        string // --endpoint URL|local:STACK (endpoints.md)
	Stack           string // --stack: the stack when a command names none (project.md)
}

// Home resolves LOAMS_HOME without creating it.
func (f *Factory) Home() (home.Home, error) {
	h, err := home.Resolve(f.Getenv)
	if err != nil {
		return home.Home{}, errs.New(errs.Usage, "set LOAMS_HOME to a writable directory", "%v", err)
	}
	return h, nil
}

// Config loads config.toml.
func (f *Factory) Config() (*config.File, error) {
	h, err := f.Home()
	if err != nil {
		return nil, err
	}
	return config.Load(h.Config())
}

// Profile returns the active profile: --profile > LOAMS_PROFILE > the
// project's loams.toml > default. A profile named explicitly must exist;
// the implicit default may be absent (its settings are then all empty).
func (f *Factory) Profile() (config.Profile, error) {
	return f.profileFromWorkspace()
}

// Printer renders results in the chosen format on stdout.
func (f *Factory) Printer() *output.Printer {
	// Tables fit COLUMNS or the terminal (termWidth); pipes get every byte.
	p := output.NewPrinter(f.Globals.Output, f.IO.Out, f.colorOn()).WithWidth(f.termWidth())
	p.Warnings = f.takeWarnings
	return p
}

func (f *Factory) colorOn() bool {
	switch f.Globals.Color {
	case "always":
		return true
	case "never":
		return false
	}
	// TERM=dumb (Emacs shells, some CI logs) shows escapes as garbage.
	return f.IO.StdoutTTY && f.Getenv("NO_COLOR") == "" && f.Getenv("TERM") != "dumb"
}

// JSON reports whether --output json is in effect.
func (f *Factory) JSON() bool { return f.Globals.Output == output.JSON }

// CanPrompt reports whether we may ask the user a question.
func (f *Factory) CanPrompt() bool {
	if f.Globals.NoInput || f.Getenv("LOAMS_NO_INPUT") != "" && f.Getenv("LOAMS_NO_INPUT") != "0" || f.Getenv("CI") == "true" {
		return false
	}
	return f.IO.StdinTTY && f.IO.StderrTTY
}

// Notice prints an informational line on stderr for people (TTY, not
// --quiet, not json: there the document says it).
func (f *Factory) Notice(format string, args ...any) {
	if !f.Globals.Quiet && !f.JSON() {
		f.IO.Notice(format, args...)
	}
}

// executable is Executable, or the running binary when none was set (a
// test's Factory): every caller gets a path, none a nil func.
func (f *Factory) executable() (string, error) {
	if f.Executable == nil {
		return os.Executable()
	}
	return f.Executable()
}
