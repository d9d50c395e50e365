package agents

// Qwen Code is a Gemini CLI fork: ~/.qwen/settings.json and the project's
// .qwen/settings.json, same entry shape. Checked against @qwen-code/qwen-code
// 0.24: it passes its whole environment to servers (no redaction).
// Skills: ~/.qwen/skills and the project's .qwen/skills (0.24.4's
// skill manager reads both).
var qwenCode = Agent{
	Name: "qwen-code", Title: "Qwen Code", CLI: "qwen",
	Scopes: []Scope{
		{Name: ScopeUser, Path: func(e Env) string { return e.homeJoin(".qwen", "settings.json") },
			Skill: func(e Env) string { return e.skillIn(e.homeJoin(".qwen")) }},
		{Name: ScopeProject, Path: func(e Env) string { return e.projectJoin(".qwen", "settings.json") }, Project: true,
			Skill: func(e Env) string { return e.skillIn(e.projectJoin(".qwen")) }},
	},
	Format: FormatJSONC, Container: "mcpServers",
	Stdio:    commandArgs,
	HTTP:     func(url string) Object { return Object{{"httpUrl", url}} },
	Protocol: "2025-11-25", // measured: `qwen mcp list` of @qwen-code/qwen-code 0.24.4
	Detect:   func(e Env) []string { return []string{e.homeJoin(".qwen")} },
}
