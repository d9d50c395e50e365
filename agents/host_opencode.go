package agents

// opencode reads opencode.json or opencode.jsonc (JSONC either way) at the
// project root and in ~/.config/opencode; its servers live under "mcp",
// with the command as one array. Skills: .opencode/skills and
// ~/.config/opencode/skills (opencode.ai/docs/skills).
var opencode = Agent{
	Name: "opencode", Title: "opencode", CLI: "opencode",
	Scopes: []Scope{
		{Name: ScopeProject, Project: true, Path: func(e Env) string {
			if e.ProjectDir == "" {
				return ""
			}
			return firstExisting(e.projectJoin("opencode.jsonc"), e.projectJoin("opencode.json"))
		}, Skill: func(e Env) string { return e.skillIn(e.projectJoin(".opencode")) }},
		{Name: ScopeUser, Path: func(e Env) string {
			return firstExisting(e.xdgConfig("opencode", "opencode.jsonc"), e.xdgConfig("opencode", "opencode.json"))
		}, Skill: func(e Env) string { return e.skillIn(e.xdgConfig("opencode")) }},
	},
	Format: FormatJSONC, Container: "mcp",
	Stdio: func(argv []string) Object {
		return Object{{"type", "local"}, {"command", argv}, {"enabled", true}}
	},
	HTTP:      func(url string) Object { return Object{{"type", "remote"}, {"url", url}, {"enabled", true}} },
	FirstOnly: []string{"enabled"},
	Protocol:  "2025-11-25", // measured: opencode 1.18.33 (`opencode mcp list`)
	Detect:    func(e Env) []string { return []string{e.xdgConfig("opencode")} },
}
