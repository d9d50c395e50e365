package agents

// Gemini CLI reads ~/.gemini/settings.json and the project's
// .gemini/settings.json (JSONC). It withholds credential-like variables
// from the servers it starts, which doctor reproduces. `gemini mcp add`
// would replace our whole entry (dropping the user's env), so install
// edits the file. Skills: ~/.gemini/skills and the workspace's
// .gemini/skills (geminicli.com/docs/cli/using-agent-skills).
var geminiCLI = Agent{
	Name: "gemini-cli", Title: "Gemini CLI", CLI: "gemini",
	Scopes: []Scope{
		{Name: ScopeUser, Path: func(e Env) string { return e.homeJoin(".gemini", "settings.json") },
			Skill: func(e Env) string { return e.skillIn(e.homeJoin(".gemini")) }},
		{Name: ScopeProject, Path: func(e Env) string { return e.projectJoin(".gemini", "settings.json") }, Project: true,
			Skill: func(e Env) string { return e.skillIn(e.projectJoin(".gemini")) }},
	},
	Format: FormatJSONC, Container: "mcpServers",
	Stdio:    commandArgs,
	HTTP:     func(url string) Object { return Object{{"httpUrl", url}} },
	Protocol: "2025-06-18", // measured: `gemini mcp list` of @google/gemini-cli 0.61 initializes at 2025-06-18
	DropEnv:  dropSecretsLike,
	Detect:   func(e Env) []string { return []string{e.homeJoin(".gemini")} },
}
