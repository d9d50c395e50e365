// Package workspace decides, for both faces (the CLI verbs and the MCP
// tools), which stack, which endpoint, which key and which profile a
// request acts on (spec project.md). Every decision lives here once; the
// faces only pass what they were given and render the answer with its
// source.
package workspace

import (
	"context"
	"path/filepath"
	"strings"
	"sync"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// Source names the step of the target rule that decided.
type Source string

const (
	FromArgument     Source = "argument"      // a positional argument, --name, a tool's name
	FromFlag         Source = "flag"          // --stack, --endpoint
	FromEnv          Source = "env"           // LOAMS_STACK, LOAMS_ENDPOINT
	FromManifest     Source = "loams.toml"    // the project's [dev] table
	FromDefaultStack Source = "default_stack" // the profile's default_stack
	FromOnlyStack    Source = "only_stack"    // the one stack that exists
	FromProfile      Source = "profile"       // the active profile's endpoint
)

// Target is what a command or tool acted on and why; every result that acts
// on a stack or endpoint carries it.
type Target struct {
	Stack    string `json:"stack,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
	Profile  string `json:"profile,omitempty"`
	Source   Source `json:"source"`
	Project  string `json:"project,omitempty"`
	// Unbound: Project has no loams.toml binding, and default_stack or
	// the only stack chose (a read may use it; a write may not).
	Unbound bool `json:"unbound,omitempty"`
}

// Explicit reports whether the user named the target in this very request,
// so saying where it came from would only repeat them.
func (t Target) Explicit() bool { return t.Source == FromArgument }

// Line is the one dim stderr line of table mode: `stack nodeapp (from loams.toml)`.
func (t Target) Line() string {
	what := "stack " + t.Stack
	if t.Stack == "" {
		what = "endpoint " + t.Endpoint
		if t.Profile != "" {
			what += " (profile " + t.Profile + ")"
		}
	}
	from := string(t.Source)
	switch t.Source {
	case FromManifest:
		from = filepath.Join(t.Project, "loams.toml")
	case FromOnlyStack:
		from = "the only stack"
	case FromDefaultStack:
		from = "the profile's default_stack"
	case FromEnv:
		from = "LOAMS_STACK"
		if t.Stack == "" {
			from = "LOAMS_ENDPOINT"
		}
	case FromFlag:
		from = "--stack"
		if t.Stack == "" {
			from = "--endpoint"
		}
	case FromProfile:
		from = "the profile's endpoint"
	}
	if t.Unbound {
		from += "; " + t.Project + " has no loams.toml"
	}
	return what + " (from " + from + ")"
}

// Workspace is one request's view of the machine and the project. Build one
// per process (or per test); it reads loams.toml once, lazily.
type Workspace struct {
	Home   home.Home
	Getenv func(string) string
	// Dir is where the project is looked for: --project-dir, the MCP
	// server's project directory, else the working directory.
	Dir string
	// StackFlag is --stack (global, or the command's own --stack).
	StackFlag string
	// EndpointFlag is --endpoint.
	EndpointFlag string
	// ProfileFlag is --profile, else LOAMS_PROFILE ("" for neither).
	ProfileFlag string
	// Secrets opens the stacks' key store; ProfileKeys the profiles'.
	Secrets     func(context.Context) (secret.Store, error)
	ProfileKeys func(context.Context) (secret.BoundStore, error)
	// Notice, when set, hears what a person should know once (an old
	// key bound to its profile's endpoint).
	Notice func(string)
	// Agent renders hints for an MCP caller (tool calls) instead of commands.
	Agent bool
	// Supervisor is the process's one stack supervisor (both faces).
	Supervisor func() (*stack.Supervisor, error)
	// Managed, when set, is the service manager that owns stack name
	// (autostart), or nil when none does.
	Managed func(name string) Service
	// Warn, when set, hears once about keys of [dev] loams does not know
	// (a typo such as `stak` would otherwise silently bind nothing).
	Warn func(string)
	// Confirm, when set, asks the person at the terminal a yes/no question
	// (consent.go); nil when nobody can be asked.
	Confirm func(question string) (bool, error)
	// MakeWorktreeStack creates a worktree's own stack on first need
	// (worktree.go); nil leaves it to the user.
	MakeWorktreeStack MakeWorktreeStack

	// explicitDir: Dir was given as the project (--project-dir, the
	// agent's), not a directory to look for one from.
	explicitDir bool

	once    sync.Once
	warned  sync.Once
	binding Binding
	bindErr error

	// gitTree caches linkedWorktree's answer per directory: one request
	// resolves its stack several times (resolve, ensure, export), and each
	// answer is a git process. The MCP server's tool calls share it.
	gitMu   sync.Mutex
	gitTree map[string][2]string
}

// Binding is the project's loams.toml [dev] table; the zero Binding (no
// Path) when no loams.toml is found from Dir.
func (w *Workspace) Binding() (Binding, error) {
	w.once.Do(func() {
		if w.Dir == "" {
			return
		}
		w.binding, w.bindErr = LoadBinding(w.Dir, w.Getenv("HOME"))
	})
	return w.binding, w.bindErr
}

// warnUnknown says once, when a target is first resolved, that [dev] holds
// keys loams does not know (a typo such as `stak` binds nothing). Not on
// the first read: the CLI reads the profile before it knows its output
// format, and a warning must land where that format puts it.
func (w *Workspace) warnUnknown(b Binding) {
	if msgs := b.Warnings(); len(msgs) > 0 && w.Warn != nil {
		w.warned.Do(func() {
			for _, m := range msgs {
				w.Warn(m)
			}
		})
	}
}

// Rebind forgets the cached binding: the command just wrote loams.toml.
func (w *Workspace) Rebind() {
	w.once = sync.Once{}
	w.binding, w.bindErr = Binding{}, nil
}

// ProfileName applies --profile > LOAMS_PROFILE > the project's [dev]
// profile > default. explicit is true when the user or the project named it
// (then it must exist).
func (w *Workspace) ProfileName() (name string, explicit bool, err error) {
	if w.ProfileFlag != "" {
		return w.ProfileFlag, true, nil
	}
	b, err := w.Binding()
	if err != nil {
		return "", false, err
	}
	if b.Profile != "" {
		return b.Profile, true, nil
	}
	return config.DefaultProfile, false, nil
}

// Profile loads the active profile. A profile named explicitly (flag,
// environment, loams.toml) must exist; the implicit default may be absent.
func (w *Workspace) Profile() (config.Profile, error) {
	name, explicit, err := w.ProfileName()
	if err != nil {
		return config.Profile{}, err
	}
	return w.ProfileNamed(name, explicit)
}

// ProfileNamed loads the profile name; explicit says it must exist.
func (w *Workspace) ProfileNamed(name string, explicit bool) (config.Profile, error) {
	cfg, err := config.Load(w.Home.Config())
	if err != nil {
		return config.Profile{}, err
	}
	p, ok := cfg.Profile(name)
	if !ok && explicit {
		how := "`loams configure list` shows the profiles; create it with `loams --profile " + name + " configure set KEY VALUE`"
		if w.ProfileFlag == "" {
			how = "fix [dev] profile in " + w.binding.Path + ", or create the profile with `loams --profile " + name + " configure set KEY VALUE`"
		}
		return p, errs.New(errs.ProfileNotFound, how, "no profile named %q in %s", name, cfg.Path).
			ForAgent(errs.AskUser("loams --profile "+name+" configure set KEY VALUE")).With("profile", name)
	}
	return p, nil
}

// quoteList renders names for a message: `a`, `b`.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}
