package agents

// VS Code (GitHub Copilot's agent mode) reads .vscode/mcp.json and mcp.json
// in the Code user directory; servers live under "servers".
var vscode = Agent{
	Name: "vscode", Title: "VS Code", CLI: "code",
	Scopes: []Scope{
		{Name: ScopeProject, Path: func(e Env) string { return e.projectJoin(".vscode", "mcp.json") }, Project: true},
		{Name: ScopeUser, Path: func(e Env) string { return e.appConfig("Code", "User", "mcp.json") }},
	},
	Format: FormatJSONC, Container: "servers",
	Stdio:    func(argv []string) Object { return append(Object{{"type", "stdio"}}, commandArgs(argv)...) },
	HTTP:     func(url string) Object { return Object{{"type", "http"}, {"url", url}} },
	Protocol: "2025-11-25",
	Detect:   func(e Env) []string { return []string{e.appConfig("Code", "User")} },
}
