package agents

// Antigravity (Gemini CLI's successor IDE) reads ~/.gemini/config/mcp_config.json
// and the project's .agents/mcp_config.json, strict JSON; HTTP servers are
// `serverUrl` there.
var antigravity = Agent{
	Name: "antigravity", Title: "Antigravity", CLI: "antigravity",
	Scopes: []Scope{
		{Name: ScopeUser, Path: func(e Env) string { return e.homeJoin(".gemini", "config", "mcp_config.json") }},
		{Name: ScopeProject, Path: func(e Env) string { return e.projectJoin(".agents", "mcp_config.json") }, Project: true},
	},
	Format: FormatJSON, Container: "mcpServers",
	Stdio:    commandArgs,
	HTTP:     func(url string) Object { return Object{{"serverUrl", url}} },
	Protocol: "2025-06-18",
	Detect: func(e Env) []string {
		return []string{e.homeJoin(".gemini", "config"), e.homeJoin(".gemini", "antigravity")}
	},
}
