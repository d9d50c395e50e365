package agents

// Claude Code keeps user and local entries in ~/.claude.json, a state file
// it rewrites often: new entries go through `claude mcp add` when claude
// answers, and without it the file is edited like any host's (the help
// promises it; the write is atomic, so claude sees the old or the new
// file). The project's .mcp.json is a plain file. Skills: ~/.claude/skills
// and the project's .claude/skills (code.claude.com/docs/en/skills).
var claudeCode = Agent{
	Name: "claude-code", Title: "Claude Code", CLI: "claude",
	Scopes: []Scope{
		{Name: ScopeUser, Path: claudeJSON, MaxSize: claudeJSONMax, Skill: func(e Env) string {
			return e.skillIn(e.envOr("CLAUDE_CONFIG_DIR", e.homeJoin(".claude")))
		}},
		{Name: ScopeProject, Path: func(e Env) string { return e.projectJoin(".mcp.json") }, Project: true,
			Skill: func(e Env) string { return e.skillIn(e.projectJoin(".claude")) }},
		{Name: ScopeLocal, Path: claudeJSON, Nested: true, MaxSize: claudeJSONMax},
	},
	Format: FormatJSON, Container: "mcpServers",
	Stdio:    commandArgs,
	HTTP:     func(url string) Object { return Object{{"type", "http"}, {"url", url}} },
	Protocol: "2026-07-28", // measured: Claude Code 2.1.332 (`claude mcp list`) sends server/discover
	// Claude Code tells its servers the project through this variable.
	ProjectEnv: "CLAUDE_PROJECT_DIR",
	AddArgv: func(scope string, en Entry) []string {
		if en.URL != "" {
			return []string{"claude", "mcp", "add", "--transport", "http", "--scope", scope, en.Name, en.URL}
		}
		return append([]string{"claude", "mcp", "add", "--scope", scope, en.Name, "--"}, en.Command...)
	},
	RemoveArgv: func(scope, name string) []string { return []string{"claude", "mcp", "remove", "--scope", scope, name} },
	Detect:     func(e Env) []string { return []string{e.homeJoin(".claude")} },
}

func claudeJSON(e Env) string {
	return e.join(e.envOr("CLAUDE_CONFIG_DIR", e.home()), ".claude.json")
}

// claudeJSONMax: ~/.claude.json holds Claude Code's project history too;
// users report 8 to 100 MB (anthropics/claude-code#6394, #10592).
const claudeJSONMax = 256 << 20
