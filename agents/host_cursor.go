package agents

// Cursor reads ~/.cursor/mcp.json and the project's .cursor/mcp.json.
var cursor = Agent{
	Name: "cursor", Title: "Cursor",
	Scopes: []Scope{
		{Name: ScopeUser, Path: func(e Env) string { return e.homeJoin(".cursor", "mcp.json") }},
		{Name: ScopeProject, Path: func(e Env) string { return e.projectJoin(".cursor", "mcp.json") }, Project: true},
	},
	Format: FormatJSON, Container: "mcpServers",
	Stdio:    func(argv []string) Object { return append(Object{{"type", "stdio"}}, commandArgs(argv)...) },
	HTTP:     func(url string) Object { return Object{{"url", url}} },
	Protocol: "2025-06-18",
	Detect:   func(e Env) []string { return []string{e.homeJoin(".cursor")} },
}
