// Package agents registers `loams mcp serve` with coding agent hosts
// (Claude Code, Codex, Cursor, Windsurf, opencode, VS Code, Copilot CLI,
// Gemini CLI, Qwen Code, Antigravity, Claude Desktop, Zed): through the
// host's own CLI where that keeps the user's file intact, else by a
// surgical edit of its config file; it checks that the hosts can actually
// start it (doctor) and says which hosts are installed (init). Each host
// is one value in the registry (host_*.go).
package agents

import (
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
)

// Env is what install, uninstall and doctor need from the outside world.
type Env struct {
	Getenv     func(string) string // HOME, PATH, APPDATA, XDG_CONFIG_HOME, CODEX_HOME, …
	GOOS       string              // "" = this machine's; tests set darwin/windows
	ProjectDir string              // "" when there is none (user scope needs none)
	Loams      home.Home
	Executable string // absolute path of the running loams
	Now        func() time.Time
	// CLITimeout bounds each agent CLI call (default 30 s; `--version` gets 5 s).
	CLITimeout time.Duration
}

// Location is the config file an entry lives in and its format.
type Location struct {
	Path   string
	Format string // json | jsonc | toml
	// Container is the path of keys to the object/table holding the servers.
	Container []string
	Project   bool // a project scope (new files 0644)
	// Root confines the file (and the file its symlink leads to) to a
	// project: "" for user scopes.
	Root string
	// MaxSize caps the bytes read (0: maxConfigSize).
	MaxSize int64
}

// location says where host a keeps servers of scope.
func (e Env) location(a Agent, scope string) (Location, error) {
	s, ok := a.scope(scope)
	if !ok {
		return Location{}, errs.New(errs.Usage, a.Name+" scopes: "+strings.Join(a.ScopeNames(), ", "), "%s has no %s scope", a.Name, scope)
	}
	if s.Project && e.ProjectDir == "" || s.Nested && e.ProjectDir == "" {
		return Location{}, errs.New(errs.Usage, "run it in your project, or pass --project-dir",
			"the %s scope of %s needs a project directory", scope, a.Name)
	}
	loc := Location{Path: s.Path(e), Format: a.Format, Container: []string{a.Container}, Project: s.Project}
	if s.Project {
		loc.Root = e.ProjectDir
	}
	loc.MaxSize = s.MaxSize
	if s.Nested {
		loc.Container = []string{"projects", e.ProjectDir, a.Container}
	}
	return loc, nil
}

// Entry is one MCP server registration: stdio (Command) or HTTP (URL).
type Entry struct {
	Name    string   `json:"name"`
	Command []string `json:"command,omitempty"`
	URL     string   `json:"url,omitempty"`
}

// Entries are what install writes: loams itself (serveArgs after `mcp
// serve`, such as --profile staging), and the stack's own HTTP MCP endpoint
// when it has one and the host runs HTTP servers.
func (a Agent) Entries(executable string, serveArgs []string, stack, mcpURL string) []Entry {
	out := []Entry{{Name: "loams", Command: append([]string{executable, "mcp", "serve"}, serveArgs...)}}
	if stack != "" && mcpURL != "" && a.HTTP != nil {
		out = append(out, Entry{Name: "loams-" + stack, URL: mcpURL})
	}
	return out
}
