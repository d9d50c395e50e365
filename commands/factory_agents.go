package commands

import (
	"os"
	"path/filepath"

	"loams.dev/cli/agents"
	"loams.dev/cli/project"
)

// agentsEnv is what mcp install/uninstall/doctor need. A missing project
// directory is not an error here: only the project scopes need one.
func (f *Factory) agentsEnv(projectDir string) (agents.Env, error) {
	h, err := f.Home()
	if err != nil {
		return agents.Env{}, err
	}
	exe, err := f.executable()
	if err != nil {
		return agents.Env{}, err
	}
	if projectDir == "" {
		projectDir = f.agentsProjectDir
	}
	cwd, _ := os.Getwd()
	dir, err := project.Find(projectDir, f.Getenv, cwd)
	if err != nil && projectDir != "" {
		return agents.Env{}, err
	}
	return agents.Env{Getenv: f.Getenv, ProjectDir: dir, Loams: h, Executable: f.stableExecutable(exe), Now: f.Now}, nil
}

// stableExecutable prefers the `loams` on PATH when it is a link to the
// running binary: Homebrew's /opt/homebrew/bin/loams survives upgrades,
// the Cellar path it points to does not.
func (f *Factory) stableExecutable(exe string) string {
	exe, _ = filepath.Abs(exe)
	real, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	for _, dir := range filepath.SplitList(f.Getenv("PATH")) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, "loams")
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, real) {
			return p
		}
	}
	return exe
}
