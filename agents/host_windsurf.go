package agents

// Windsurf reads ~/.codeium/windsurf/mcp_config.json; HTTP servers are
// `serverUrl` there.
var windsurf = Agent{
	Name: "windsurf", Title: "Windsurf",
	Scopes: []Scope{{Name: ScopeUser, Path: func(e Env) string {
		return e.homeJoin(".codeium", "windsurf", "mcp_config.json")
	}}},
	Format: FormatJSON, Container: "mcpServers",
	Stdio:    commandArgs,
	HTTP:     func(url string) Object { return Object{{"serverUrl", url}} },
	Protocol: "2025-06-18",
	Detect:   func(e Env) []string { return []string{e.homeJoin(".codeium", "windsurf")} },
}
