package agents

// Claude Desktop reads claude_desktop_config.json in the Claude app's
// config directory, strict JSON, and starts stdio servers only (remote
// servers are added as connectors in the app), so the stack's HTTP
// endpoint is not written there.
var claudeDesktop = Agent{
	Name: "claude-desktop", Title: "Claude Desktop",
	Scopes: []Scope{{Name: ScopeUser, Path: func(e Env) string {
		return e.appConfig("Claude", "claude_desktop_config.json")
	}}},
	Format: FormatJSON, Container: "mcpServers",
	Stdio:    commandArgs,
	Protocol: "2025-06-18",
	Detect:   func(e Env) []string { return []string{e.appConfig("Claude")} },
}
