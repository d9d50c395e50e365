package agents

// GitHub Copilot CLI reads ~/.copilot/mcp-config.json ($COPILOT_HOME moves
// the directory); an entry lists the tools it may use, all by default.
var copilotCLI = Agent{
	Name: "copilot-cli", Title: "GitHub Copilot CLI", CLI: "copilot",
	Scopes: []Scope{{Name: ScopeUser, Path: func(e Env) string {
		return e.join(copilotHome(e), "mcp-config.json")
	}, Skill: func(e Env) string { return e.skillIn(copilotHome(e)) }}},
	Format: FormatJSON, Container: "mcpServers",
	Stdio: func(argv []string) Object {
		return append(append(Object{{"type", "local"}}, commandArgs(argv)...), Member{"tools", []string{"*"}})
	},
	HTTP:      func(url string) Object { return Object{{"type", "http"}, {"url", url}, {"tools", []string{"*"}}} },
	FirstOnly: []string{"tools"},
	Protocol:  "2026-07-28", // measured: Copilot CLI 1.0.102 sends server/discover, then a stateless tools/list
	Detect:    func(e Env) []string { return []string{copilotHome(e)} },
}

func copilotHome(e Env) string { return e.envOr("COPILOT_HOME", e.homeJoin(".copilot")) }
