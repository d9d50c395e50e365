// Package project finds and edits the user's application project: its
// directory, its .env files and .gitignore. Files here belong to the user,
// so every edit is surgical and atomic.
package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/errs"
)

// Markers are the names whose presence makes a directory a project root, for
// every command (env export, init, pkg add, mcp install/serve): one rule, so
// a folder is a project for all of them or for none.
var Markers = []string{
	// version control (a directory, or a file in a worktree or submodule)
	".git",
	// manifests of the ecosystems pkg add knows, and requirements.txt, which
	// pip projects have instead of one
	"package.json", "pyproject.toml", "requirements.txt", "go.mod", "Cargo.toml",
	// a workspace root can hold only its lockfile and workspace file
	"pnpm-workspace.yaml", "pnpm-lock.yaml", "yarn.lock", "bun.lock", "bun.lockb", "package-lock.json",
	"uv.lock", "poetry.lock", "go.work",
	// the project-scope configuration of coding agents (packages-agents.md)
	".mcp.json", ".cursor", ".vscode", ".windsurf", ".gemini", ".qwen", ".zed", "opencode.json", "opencode.jsonc",
}

// ErrNotFound is the cause when no project directory was found: callers
// that can do without one (init skips .env.loams) test for it.
var ErrNotFound = errors.New("no project directory found")

// Find resolves the project directory: flagDir (--project-dir), else
// $CLAUDE_PROJECT_DIR, else the nearest ancestor of cwd holding a marker.
// $HOME and / are never guessed (~/.cursor and ~/.vscode are user-scope
// configuration, not a project), so a command run outside any project fails
// instead of writing there.
func Find(flagDir string, getenv func(string) string, cwd string) (string, error) {
	for _, d := range []string{flagDir, getenv("CLAUDE_PROJECT_DIR")} {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", errs.New(errs.Usage, "pass an existing directory with --project-dir",
				"project directory %s does not exist", abs).With("project_dir", abs).
				ForAgent(errs.AskUser("loams mcp install --agent AGENT --project-dir DIR") + " with an existing project directory")
		}
		return filepath.EvalSymlinks(abs)
	}
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return "", err
	}
	for _, dir := range Ancestors(abs, getenv("HOME")) {
		if IsRoot(dir) {
			return filepath.EvalSymlinks(dir)
		}
	}
	return "", errs.New(errs.Usage, "start the agent in your project, or pass --project-dir",
		"no project directory found from %s (looked for %s up to your home directory)", cwd, strings.Join(Markers, ", ")).
		With("cwd", cwd).With("markers", Markers).Wrap(ErrNotFound).
		ForAgent("ask the user to start the agent in the project, or to run `loams mcp install --agent AGENT --project-dir DIR`")
}

// IsRoot reports whether dir holds one of the Markers.
func IsRoot(dir string) bool {
	for _, m := range Markers {
		if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
			return true
		}
	}
	return false
}

// Ancestors lists dir and its parents, nearest first, stopping before home
// and before the filesystem root: neither is ever taken for a project.
func Ancestors(dir, home string) []string {
	dir = filepath.Clean(dir)
	if home != "" {
		home = filepath.Clean(home)
	}
	var out []string
	for {
		parent := filepath.Dir(dir)
		if parent == dir || dir == home {
			return out
		}
		out = append(out, dir)
		dir = parent
	}
}

// UpToRepository lists dir and its parents, nearest first, up to and
// including the repository root (the first that holds .git); without one,
// up to home or the filesystem root, which are left out. A workspace's
// lockfile is looked for there.
func UpToRepository(dir, home string) []string {
	var out []string
	for _, d := range Ancestors(dir, home) {
		out = append(out, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			break
		}
	}
	return out
}
