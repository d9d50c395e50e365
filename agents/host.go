package agents

import (
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
)

// Scopes of an entry: the user's, the project's (shared through git), or
// Claude Code's per-user-per-project "local".
const (
	ScopeUser    = "user"
	ScopeProject = "project"
	ScopeLocal   = "local"
)

// Config file formats. Strict JSON hosts refuse comments, so a file of
// theirs that has some is not ours to "fix"; JSONC hosts keep them.
const (
	FormatJSON  = "json"
	FormatJSONC = "jsonc"
	FormatTOML  = "toml"
)

// Agent is one agent host: everything install, uninstall, doctor and init
// know about it. Each host is one value in its own host_*.go file; nothing
// outside those files asks for a host by name.
type Agent struct {
	Name  string // the --agent value
	Title string // as people call it, for messages and guides
	// CLI is the host's own program. With AddArgv set, install creates new
	// entries through it when it answers `--version`.
	CLI    string
	Scopes []Scope // first = default
	Format string
	// Container is the member of the root object that holds the servers.
	Container string
	// Stdio and HTTP shape a new entry (HTTP nil: the host runs stdio
	// servers only, so the stack's HTTP endpoint is not registered there).
	Stdio func(argv []string) Object
	HTTP  func(url string) Object
	// FirstOnly are keys written with a new entry only (`enabled`, `tools`):
	// the user may change them and a re-install must not undo that. Every
	// other key of the shape is ours and set on every install.
	FirstOnly []string
	// Protocol is the MCP revision the host's client asks for (initialize, or
	// server/discover's _meta from 2026-07-28 on: the SDK probes it first),
	// so doctor shakes hands the way the host does.
	Protocol string
	// DropEnv says which inherited variables the host withholds from the
	// servers it starts (nil: it passes its whole environment).
	DropEnv func(name string) bool
	// ProjectEnv names the variable through which the host tells a server
	// its project directory, if it does.
	ProjectEnv string
	// AddArgv and RemoveArgv are the host CLI's own commands (nil: none).
	AddArgv    func(scope string, en Entry) []string
	RemoveArgv func(scope, name string) []string
	// CLIDropsComments: the CLI rewrites the file without its comments, so
	// a file with comments is edited directly instead.
	CLIDropsComments bool
	// Detect lists directories whose presence means the host is installed
	// (for `loams init`), besides its CLI answering.
	Detect func(e Env) []string
}

// Scope is one place a host reads servers from.
type Scope struct {
	Name string
	// Path is the config file for this scope ("" when it cannot be known,
	// e.g. a project scope without a project).
	Path func(e Env) string
	// Project scopes need a project directory; their new files are 0644
	// (shared through git), user ones 0600.
	Project bool
	// Nested: the servers live under projects.<project dir> (Claude Code's
	// local scope) instead of the root.
	Nested bool
	// MaxSize caps what loams reads of the file (0: 4 MiB). Raised only
	// for a file the host also keeps its state in.
	MaxSize int64
	// Skill is where the host reads a loams skill file at this scope
	// (--with-skill); nil where it reads none or none is documented.
	Skill func(e Env) string
}

// Object is a JSON object whose keys keep the order the hosts' docs show.
type Object []Member

// Member is one key and value of an Object.
type Member struct {
	Key   string
	Value any
}

func (o Object) get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// hosts is the registry, in the order help and init list them.
var hosts = []Agent{claudeCode, codex, cursor, windsurf, opencode, vscode, copilotCLI, geminiCLI, qwenCode, antigravity, claudeDesktop, zed}

// Agents lists the supported hosts.
func Agents() []Agent { return slices.Clone(hosts) }

// Names lists the host names for help and hints.
func Names() []string {
	var out []string
	for _, a := range hosts {
		out = append(out, a.Name)
	}
	return out
}

// ScopeNames lists a host's scopes, default first.
func (a Agent) ScopeNames() []string {
	var out []string
	for _, s := range a.Scopes {
		out = append(out, s.Name)
	}
	return out
}

// maxSize is the read cap of the host's file at scope.
func (a Agent) maxSize(scope string) int64 {
	s, _ := a.scope(scope)
	return s.MaxSize
}

func (a Agent) scope(name string) (Scope, bool) {
	for _, s := range a.Scopes {
		if s.Name == name {
			return s, true
		}
	}
	return Scope{}, false
}

// Lookup finds a host by name and checks the scope ("" = its default).
func Lookup(name, scope string) (Agent, string, error) {
	for _, a := range hosts {
		if a.Name != name {
			continue
		}
		if scope == "" {
			return a, a.Scopes[0].Name, nil
		}
		if _, ok := a.scope(scope); !ok {
			return a, "", errs.New(errs.Usage, name+" scopes: "+strings.Join(a.ScopeNames(), ", "),
				"%s has no %s scope", name, scope).With("agent", name).With("scope", scope)
		}
		return a, scope, nil
	}
	return Agent{}, "", errs.New(errs.Usage, "use --agent "+strings.Join(Names(), ", "), "unknown agent %q", name).With("agent", name)
}

// ScopeHelp is one line per host for `mcp install --help`.
func ScopeHelp() string {
	var lines []string
	for _, a := range hosts {
		lines = append(lines, "  "+a.Name+": "+strings.Join(a.ScopeNames(), ", "))
	}
	return strings.Join(lines, "\n")
}

// entryValue is the entry as host a writes it.
func (a Agent) entryValue(en Entry) Object {
	if en.URL != "" {
		return a.HTTP(en.URL)
	}
	return a.Stdio(en.Command)
}

// owned are the keys of v that install sets on every run.
func (a Agent) owned(v Object) []string {
	var out []string
	for _, m := range v {
		if !slices.Contains(a.FirstOnly, m.Key) {
			out = append(out, m.Key)
		}
	}
	return out
}

// commandArgs is the common stdio shape {"command": abs, "args": [...]}.
func commandArgs(argv []string) Object {
	return Object{{"command", argv[0]}, {"args", argv[1:]}}
}

// dropSecretsLike is Gemini CLI's rule (and its forks'): inherited variables
// whose names look like credentials are not passed to MCP servers.
func dropSecretsLike(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range []string{"KEY", "TOKEN", "SECRET", "AUTH", "CERT", "PASSWORD", "CREDENTIAL"} {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}
