package agents

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// The hosts keep their files in OS-specific places. These helpers compute
// them from Env (GOOS, HOME, APPDATA, XDG_CONFIG_HOME), never from the
// process, so tests cover Windows and macOS paths on Linux.

func (e Env) goos() string {
	if e.GOOS != "" {
		return e.GOOS
	}
	return runtime.GOOS
}

// home is the user's home directory (Windows: USERPROFILE when HOME is unset).
func (e Env) home() string {
	if h := e.Getenv("HOME"); h != "" || e.goos() != "windows" {
		return h
	}
	return e.Getenv("USERPROFILE")
}

// join joins with the target OS's separator (so a Windows path computed
// on Linux reads C:\Users\me\AppData\Roaming\Code\User\mcp.json).
func (e Env) join(parts ...string) string {
	if e.goos() == "windows" {
		if runtime.GOOS == "windows" {
			return filepath.Join(parts...)
		}
		for i, p := range parts {
			parts[i] = strings.ReplaceAll(p, `\`, "/")
		}
		return strings.ReplaceAll(path.Join(parts...), "/", `\`)
	}
	return filepath.Join(parts...)
}

// homeJoin is a path under the home directory.
func (e Env) homeJoin(parts ...string) string {
	return e.join(append([]string{e.home()}, parts...)...)
}

// projectJoin is a path under the project ("" without a project).
func (e Env) projectJoin(parts ...string) string {
	if e.ProjectDir == "" {
		return ""
	}
	return e.join(append([]string{e.ProjectDir}, parts...)...)
}

// xdgConfig is $XDG_CONFIG_HOME or ~/.config, which the Node and Rust
// hosts use on every OS (opencode, Zed on Linux and macOS).
func (e Env) xdgConfig(parts ...string) string {
	base := e.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		base = e.homeJoin(".config")
	}
	return e.join(append([]string{base}, parts...)...)
}

// appConfig is an Electron app's config directory: ~/Library/Application
// Support/<app> on macOS, %APPDATA%\<app> on Windows, XDG on Linux.
func (e Env) appConfig(app string, parts ...string) string {
	var base string
	switch e.goos() {
	case "darwin":
		base = e.homeJoin("Library", "Application Support", app)
	case "windows":
		appData := e.Getenv("APPDATA")
		if appData == "" {
			appData = e.homeJoin("AppData", "Roaming")
		}
		base = e.join(appData, app)
	default:
		base = e.xdgConfig(app)
	}
	return e.join(append([]string{base}, parts...)...)
}

// firstExisting returns the first candidate that exists, else the last
// (opencode reads opencode.jsonc or opencode.json; new files are .json).
func firstExisting(candidates ...string) string {
	for _, c := range candidates {
		if _, err := os.Lstat(c); err == nil {
			return c
		}
	}
	return candidates[len(candidates)-1]
}

// envOr is $name when set, else def.
func (e Env) envOr(name, def string) string {
	if v := e.Getenv(name); v != "" {
		return v
	}
	return def
}
