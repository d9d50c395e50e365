package pkgadd

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"loams.dev/cli/internal/safefile"
)

// untrustedVenv says why the project's virtual environment at venv must
// not be run ("" when it may). A cloned repository is someone else's
// writing: a committed .venv/bin/python, or a .venv that is a link to
// /usr, would otherwise be run by `pkg add` as this user. A venv python
// made here has pyvenv.cfg beside it, belongs to this user, lies inside
// the project and is not tracked by git.
func untrustedVenv(project, venv string) string {
	realProject, err := filepath.EvalSymlinks(project)
	if err != nil {
		return err.Error()
	}
	real, err := filepath.EvalSymlinks(venv)
	if err != nil {
		return err.Error()
	}
	if !safefile.Inside(realProject, real) {
		return "it leads to " + real + ", outside the project"
	}
	cfg, err := os.Lstat(filepath.Join(real, "pyvenv.cfg"))
	if errors.Is(err, fs.ErrNotExist) || err == nil && !cfg.Mode().IsRegular() {
		return "it has no pyvenv.cfg, so `python3 -m venv` did not make it"
	}
	if err != nil {
		return err.Error()
	}
	for _, p := range []string{real, filepath.Join(real, "pyvenv.cfg"), filepath.Dir(venvPython(real))} {
		if why := notMine(p); why != "" {
			return why
		}
	}
	if tracked(realProject, real) {
		return "git tracks files in it: it came with the repository, not from `python3 -m venv` here"
	}
	return ""
}

// tracked reports whether git tracks anything under dir. Without git, or
// outside a repository, nothing is tracked.
func tracked(repo, dir string) bool {
	rel, err := filepath.Rel(repo, dir)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", repo, "ls-files", "-z", "--", rel)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	return err == nil && len(out) > 0
}
