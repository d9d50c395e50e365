// Package agents registers `loams mcp serve` with coding agents (Claude Code,
// Codex, Cursor, Windsurf): through the agent's own CLI when it is installed,
// else by a surgical edit of its config file, and checks that the agents can
// actually start it (doctor).
package agents

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
)

// Scopes of an entry: the user's, the project's (shared through git), or
// Claude Code's per-user-per-project "local".
const (
	ScopeUser    = "user"
	ScopeProject = "project"
	ScopeLocal   = "local"
)

// Agent is one coding agent and where it keeps MCP servers.
type Agent struct {
	Name   string   // claude-code, codex, cursor, windsurf
	CLI    string   // its command-line program, "" if it has none we use
	Scopes []string // first = default
	// Protocol is the MCP revision its client sends in initialize
	// (measured), so doctor shakes hands the way the agent does.
	Protocol string
}

// Agents lists the supported agents.
func Agents() []Agent {
	return []Agent{
		{Name: "claude-code", CLI: "claude", Scopes: []string{ScopeUser, ScopeProject, ScopeLocal}, Protocol: "2025-11-25"},
		{Name: "codex", CLI: "codex", Scopes: []string{ScopeUser}, Protocol: "2025-06-18"},
		{Name: "cursor", Scopes: []string{ScopeUser, ScopeProject}, Protocol: "2025-06-18"},
		{Name: "windsurf", Scopes: []string{ScopeUser}, Protocol: "2025-06-18"},
	}
}

// Names lists the agent names for help and hints.
func Names() []string {
	var out []string
	for _, a := range Agents() {
		out = append(out, a.Name)
	}
	return out
}

// Lookup finds an agent by name and checks the scope ("" = its default).
func Lookup(name, scope string) (Agent, string, error) {
	for _, a := range Agents() {
		if a.Name != name {
			continue
		}
		if scope == "" {
			return a, a.Scopes[0], nil
		}
		if !slices.Contains(a.Scopes, scope) {
			return a, "", errs.New(errs.Usage, name+" scopes: "+strings.Join(a.Scopes, ", "),
				"%s has no %s scope", name, scope).With("agent", name).With("scope", scope)
		}
		return a, scope, nil
	}
	return Agent{}, "", errs.New(errs.Usage, "use --agent "+strings.Join(Names(), ", "), "unknown agent %q", name).With("agent", name)
}

// Env is what install, uninstall and doctor need from the outside world.
type Env struct {
	Getenv     func(string) string // HOME, PATH, CODEX_HOME, CLAUDE_CONFIG_DIR
	ProjectDir string              // "" when there is none (user scope needs none)
	Loams      home.Home
	Executable string // absolute path of the running loams
	Now        func() time.Time
	// CLITimeout bounds each agent CLI call (default 30 s; `--version` gets 5 s).
	CLITimeout time.Duration
}

func (e Env) home() string { return e.Getenv("HOME") }

// Location is the config file an entry lives in and its format.
type Location struct {
	Path   string
	Format string // json | toml
	// Container is the object/table holding the servers.
	Container string
	// Project is the key under "projects" for Claude Code's local scope.
	Project string
}

// location says where agent keeps servers of scope.
func (e Env) location(a Agent, scope string) (Location, error) {
	needProject := func() error {
		if e.ProjectDir == "" {
			return errs.New(errs.Usage, "run it in your project, or pass --project-dir", "the %s scope of %s needs a project directory", scope, a.Name)
		}
		return nil
	}
	h := e.home()
	switch a.Name + "/" + scope {
	case "claude-code/project":
		return Location{Path: filepath.Join(e.ProjectDir, ".mcp.json"), Format: "json", Container: "mcpServers"}, needProject()
	case "claude-code/user", "claude-code/local":
		dir := h
		if d := e.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
			dir = d
		}
		l := Location{Path: filepath.Join(dir, ".claude.json"), Format: "json", Container: "mcpServers"}
		if scope == ScopeLocal {
			l.Project = e.ProjectDir
			return l, needProject()
		}
		return l, nil
	case "codex/user":
		dir := filepath.Join(h, ".codex")
		if d := e.Getenv("CODEX_HOME"); d != "" {
			dir = d
		}
		return Location{Path: filepath.Join(dir, "config.toml"), Format: "toml", Container: "mcp_servers"}, nil
	case "cursor/user":
		return Location{Path: filepath.Join(h, ".cursor", "mcp.json"), Format: "json", Container: "mcpServers"}, nil
	case "cursor/project":
		return Location{Path: filepath.Join(e.ProjectDir, ".cursor", "mcp.json"), Format: "json", Container: "mcpServers"}, needProject()
	case "windsurf/user":
		return Location{Path: filepath.Join(h, ".codeium", "windsurf", "mcp_config.json"), Format: "json", Container: "mcpServers"}, nil
	}
	return Location{}, errs.New(errs.Usage, "see `loams mcp install --help`", "%s has no %s scope", a.Name, scope)
}

// Entry is one MCP server registration: stdio (Command) or HTTP (URL).
type Entry struct {
	Name    string   `json:"name"`
	Command []string `json:"command,omitempty"`
	URL     string   `json:"url,omitempty"`
}

// jsonValue is the entry as agent writes it in its JSON file.
func (en Entry) jsonValue(agent string) ordered {
	if en.URL != "" {
		switch agent {
		case "claude-code":
			return ordered{{"type", "http"}, {"url", en.URL}}
		case "windsurf":
			return ordered{{"serverUrl", en.URL}}
		}
		return ordered{{"url", en.URL}}
	}
	o := ordered{{"command", en.Command[0]}, {"args", en.Command[1:]}}
	if agent == "cursor" {
		o = append(ordered{{"type", "stdio"}}, o...)
	}
	return o
}

func (en Entry) tomlValues() []tomlValue {
	if en.URL != "" {
		return []tomlValue{{"url", en.URL}}
	}
	return []tomlValue{{"command", en.Command[0]}, {"args", en.Command[1:]}}
}

// Entries are what install writes: loams itself, and the stack's own HTTP
// MCP endpoint when it has one.
func Entries(executable, stack, mcpURL string) []Entry {
	out := []Entry{{Name: "loams", Command: []string{executable, "mcp", "serve"}}}
	if stack != "" && mcpURL != "" {
		out = append(out, Entry{Name: "loams-" + stack, URL: mcpURL})
	}
	return out
}
