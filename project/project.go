// Package project finds and edits the user's application project: its
// directory, its .env files and .gitignore. Files here belong to the user,
// so every edit is surgical and atomic.
package project

import (
	"os"
	"path/filepath"

	"loams.dev/cli/internal/errs"
)

// Markers are the files whose presence makes a directory a project root.
var Markers = []string{".git", "go.mod", "package.json", "pyproject.toml", "Cargo.toml"}

// Find resolves the project directory: flagDir (--project-dir), else
// $CLAUDE_PROJECT_DIR, else the nearest ancestor of cwd holding a marker.
// With none it fails: loams never writes into $HOME or / by guessing.
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
				"project directory %s does not exist", abs).With("project_dir", abs)
		}
		return filepath.EvalSymlinks(abs)
	}
	dir, err := filepath.Abs(cwd)
	if err != nil {
		return "", err
	}
	for {
		for _, m := range Markers {
			if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
				return filepath.EvalSymlinks(dir)
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errs.New(errs.Usage, "start the agent in your project, or pass --project-dir",
				"no project directory found from %s (looked for %v)", cwd, Markers)
		}
		dir = parent
	}
}
