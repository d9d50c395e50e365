package agents

// Codex keeps servers as [mcp_servers.NAME] tables in ~/.codex/config.toml
// ($CODEX_HOME moves the directory). Skills: $CODEX_HOME/skills (codex
// 0.171.0 lists it as the first skill root in `codex debug prompt-input`).
var codex = Agent{
	Name: "codex", Title: "Codex", CLI: "codex",
	Scopes: []Scope{{Name: ScopeUser, Path: func(e Env) string {
		return e.join(codexHome(e), "config.toml")
	}, Skill: func(e Env) string { return e.skillIn(codexHome(e)) }}},
	Format: FormatTOML, Container: "mcp_servers",
	Stdio:    commandArgs,
	HTTP:     func(url string) Object { return Object{{"url", url}} },
	Protocol: "2025-06-18", // measured: codex 0.171.0 (`codex debug prompt-input`)
	AddArgv: func(_ string, en Entry) []string {
		if en.URL != "" {
			return []string{"codex", "mcp", "add", en.Name, "--url", en.URL}
		}
		return append([]string{"codex", "mcp", "add", en.Name, "--"}, en.Command...)
	},
	RemoveArgv: func(_, name string) []string { return []string{"codex", "mcp", "remove", name} },
	// `codex mcp add` re-serialises config.toml without its comments.
	CLIDropsComments: true,
	Detect:           func(e Env) []string { return []string{codexHome(e)} },
}

func codexHome(e Env) string { return e.envOr("CODEX_HOME", e.homeJoin(".codex")) }
