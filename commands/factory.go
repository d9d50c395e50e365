package commands

import (
	"sync"
	"time"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/output"
)

// Factory carries what every command needs. One is made per process (or per
// test), so tests run in parallel without package-level state.
type Factory struct {
	IO     *iostreams.IOStreams
	Getenv func(string) string
	Now    func() time.Time
	// Executable is the absolute path of the running loams binary (agent
	// configs name it); tests may point it elsewhere.
	Executable func() (string, error)

	// signalsReady is closed once Main has installed the signal handlers
	// (nil in tests: nothing to wait for).
	signalsReady <-chan struct{}

	// Globals is filled in by the root command from flags, environment and profile.
	Globals Globals

	// agentsProjectDir stands in for the working directory when mcp
	// install/doctor look for the project (tests; init's --project-dir).
	agentsProjectDir string

	// keyringNote makes the "no usable OS keyring" notice once per process.
	keyringNote sync.Once
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

// Profile returns the active profile. A profile named explicitly must exist;
// the implicit default may be absent (its settings are then all empty).
func (f *Factory) Profile() (config.Profile, error) {
	cfg, err := f.Config()
	if err != nil {
		return config.Profile{}, err
	}
	p, ok := cfg.Profile(f.Globals.Profile)
	if !ok && f.Globals.ProfileExplicit {
		return p, errs.New(errs.ProfileNotFound, "run `loams configure list` to see the profiles, or create it with `loams --profile "+f.Globals.Profile+" configure set KEY VALUE`",
			"no profile named %q in %s", f.Globals.Profile, cfg.Path).With("profile", f.Globals.Profile)
	}
	return p, nil
}

// Printer renders results in the chosen format on stdout.
func (f *Factory) Printer() *output.Printer {
	// Tables fit COLUMNS or the terminal (termWidth); pipes get every byte.
	return output.NewPrinter(f.Globals.Output, f.IO.Out, f.colorOn()).WithWidth(f.termWidth())
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

// Notice prints an informational line on stderr for people (TTY, not --quiet).
func (f *Factory) Notice(format string, args ...any) {
	if !f.Globals.Quiet {
		f.IO.Notice(format, args...)
	}
}
