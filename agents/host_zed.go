package agents

// Zed reads context_servers from its settings.json (JSONC): ~/.config/zed
// on Linux and macOS, %APPDATA%\Zed on Windows, and the project's
// .zed/settings.json.
var zed = Agent{
	Name: "zed", Title: "Zed", CLI: "zed",
	Scopes: []Scope{
		{Name: ScopeUser, Path: func(e Env) string {
			if e.goos() == "windows" {
				return e.appConfig("Zed", "settings.json")
			}
			return e.xdgConfig("zed", "settings.json")
		}},
		{Name: ScopeProject, Path: func(e Env) string { return e.projectJoin(".zed", "settings.json") }, Project: true},
	},
	Format: FormatJSONC, Container: "context_servers",
	Stdio:    commandArgs,
	HTTP:     func(url string) Object { return Object{{"url", url}} },
	Protocol: "2025-03-26",
	Detect: func(e Env) []string {
		if e.goos() == "windows" {
			return []string{e.appConfig("Zed")}
		}
		return []string{e.xdgConfig("zed")}
	},
}
