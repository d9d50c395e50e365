package agents

import (
	"testing"
)

// Every host's user-scope file on Linux, macOS and Windows, computed from
// HOME/APPDATA/XDG_CONFIG_HOME and the OS without running there.
func TestUserPathsPerOS(t *testing.T) {
	t.Parallel()
	unix := map[string]string{"HOME": "/home/me"}
	mac := map[string]string{"HOME": "/Users/me"}
	win := map[string]string{"USERPROFILE": `C:\Users\me`, "APPDATA": `C:\Users\me\AppData\Roaming`}
	cases := []struct {
		goos  string
		vars  map[string]string
		agent string
		scope string
		want  string
	}{
		{"linux", unix, "claude-code", "user", "/home/me/.claude.json"},
		{"linux", map[string]string{"HOME": "/home/me", "CLAUDE_CONFIG_DIR": "/cfg/claude"}, "claude-code", "user", "/cfg/claude/.claude.json"},
		{"linux", unix, "codex", "user", "/home/me/.codex/config.toml"},
		{"linux", map[string]string{"HOME": "/home/me", "CODEX_HOME": "/cfg/codex"}, "codex", "user", "/cfg/codex/config.toml"},
		{"linux", unix, "cursor", "user", "/home/me/.cursor/mcp.json"},
		{"linux", unix, "windsurf", "user", "/home/me/.codeium/windsurf/mcp_config.json"},
		{"linux", unix, "opencode", "user", "/home/me/.config/opencode/opencode.json"},
		{"linux", map[string]string{"HOME": "/home/me", "XDG_CONFIG_HOME": "/xdg"}, "opencode", "user", "/xdg/opencode/opencode.json"},
		{"darwin", mac, "opencode", "user", "/Users/me/.config/opencode/opencode.json"},
		{"windows", win, "opencode", "user", `C:\Users\me\.config\opencode\opencode.json`},
		{"linux", unix, "vscode", "user", "/home/me/.config/Code/User/mcp.json"},
		{"darwin", mac, "vscode", "user", "/Users/me/Library/Application Support/Code/User/mcp.json"},
		{"windows", win, "vscode", "user", `C:\Users\me\AppData\Roaming\Code\User\mcp.json`},
		{"linux", unix, "copilot-cli", "user", "/home/me/.copilot/mcp-config.json"},
		{"linux", map[string]string{"HOME": "/home/me", "COPILOT_HOME": "/cfg/copilot"}, "copilot-cli", "user", "/cfg/copilot/mcp-config.json"},
		{"windows", win, "copilot-cli", "user", `C:\Users\me\.copilot\mcp-config.json`},
		{"linux", unix, "gemini-cli", "user", "/home/me/.gemini/settings.json"},
		{"windows", win, "gemini-cli", "user", `C:\Users\me\.gemini\settings.json`},
		{"linux", unix, "qwen-code", "user", "/home/me/.qwen/settings.json"},
		{"darwin", mac, "qwen-code", "user", "/Users/me/.qwen/settings.json"},
		{"linux", unix, "antigravity", "user", "/home/me/.gemini/config/mcp_config.json"},
		{"windows", win, "antigravity", "user", `C:\Users\me\.gemini\config\mcp_config.json`},
		{"linux", unix, "claude-desktop", "user", "/home/me/.config/Claude/claude_desktop_config.json"},
		{"darwin", mac, "claude-desktop", "user", "/Users/me/Library/Application Support/Claude/claude_desktop_config.json"},
		{"windows", win, "claude-desktop", "user", `C:\Users\me\AppData\Roaming\Claude\claude_desktop_config.json`},
		{"linux", unix, "zed", "user", "/home/me/.config/zed/settings.json"},
		{"darwin", mac, "zed", "user", "/Users/me/.config/zed/settings.json"},
		{"windows", win, "zed", "user", `C:\Users\me\AppData\Roaming\Zed\settings.json`},
		// Project scopes, under the project directory.
		{"linux", unix, "vscode", "project", "/work/app/.vscode/mcp.json"},
		{"linux", unix, "opencode", "project", "/work/app/opencode.json"},
		{"linux", unix, "gemini-cli", "project", "/work/app/.gemini/settings.json"},
		{"linux", unix, "qwen-code", "project", "/work/app/.qwen/settings.json"},
		{"linux", unix, "antigravity", "project", "/work/app/.agents/mcp_config.json"},
		{"linux", unix, "zed", "project", "/work/app/.zed/settings.json"},
		{"windows", win, "vscode", "project", `D:\src\app\.vscode\mcp.json`},
	}
	for _, c := range cases {
		e := Env{GOOS: c.goos, Getenv: func(k string) string { return c.vars[k] }, ProjectDir: "/work/app"}
		if c.goos == "windows" {
			e.ProjectDir = `D:\src\app`
		}
		a, _, err := Lookup(c.agent, c.scope)
		if err != nil {
			t.Fatal(err)
		}
		loc, err := e.location(a, c.scope)
		if err != nil || loc.Path != c.want {
			t.Errorf("%s %s/%s: %q (%v), want %q", c.goos, c.agent, c.scope, loc.Path, err, c.want)
		}
	}
}

// Every host in the registry is complete: scopes with paths, a container,
// a stdio shape, a protocol revision, detection.
func TestRegistryComplete(t *testing.T) {
	t.Parallel()
	if len(Agents()) != 12 {
		t.Fatalf("%d hosts", len(Agents()))
	}
	for _, a := range Agents() {
		if a.Name == "" || a.Title == "" || len(a.Scopes) == 0 || a.Container == "" || a.Stdio == nil || a.Protocol == "" || a.Detect == nil ||
			(a.Format != FormatJSON && a.Format != FormatJSONC && a.Format != FormatTOML) {
			t.Errorf("incomplete host %+v", a.Name)
		}
		for _, s := range a.Scopes {
			if s.Path == nil {
				t.Errorf("%s/%s has no path", a.Name, s.Name)
			}
		}
	}
}
