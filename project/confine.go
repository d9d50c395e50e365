package project

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// Confine resolves p (relative to dir, or absolute) for a write requested by
// an agent: symlinks of the parent and of the file itself are resolved, and
// the result must stay inside dir; its name must start with ".env" and it
// must not be a directory. It returns the real path to write. dir must
// already be resolved (Find returns it so).
func Confine(dir, p string) (string, error) {
	if p == "" {
		return "", errs.New(errs.Usage, "pass a file name such as .env.loams", "empty path")
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", errs.New(errs.Usage, "pass an existing project directory", "project directory %s: %v", dir, err)
	}
	joined := filepath.Clean(p)
	if !filepath.IsAbs(joined) {
		joined = filepath.Join(root, joined)
	}
	if !inside(root, joined) && !inside(dir, joined) {
		return "", outside(p, root)
	}
	if !checkName(filepath.Base(joined)) {
		return "", badName(p)
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(joined))
	if err != nil {
		return "", errs.New(errs.Usage, "write into an existing directory of the project", "directory of %s does not exist", p).With("path", p)
	}
	if !inside(root, parent) {
		return "", outside(p, root)
	}
	target := filepath.Join(parent, filepath.Base(joined))
	fi, err := os.Lstat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return target, nil
	case err != nil:
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(target)
		if err != nil {
			// A dangling link: writing through it would create a file we cannot vet.
			return "", errs.New(errs.PathOutsideProject, "remove the broken symlink "+p+" and try again",
				"%s is a symlink to a missing file", p).With("path", p)
		}
		if !inside(root, real) {
			return "", outside(p, root)
		}
		if !checkName(filepath.Base(real)) {
			return "", badName(p)
		}
		target = real
		if fi, err = os.Stat(target); err != nil {
			return "", err
		}
	}
	if fi.IsDir() {
		return "", errs.New(errs.Usage, "pass a file name, e.g. .env.loams", "%s is a directory", p).With("path", p)
	}
	if !fi.Mode().IsRegular() {
		return "", errs.New(errs.Usage, "pass a regular file, e.g. .env.loams", "%s is not a regular file", p).With("path", p)
	}
	return target, nil
}

func checkName(name string) bool { return strings.HasPrefix(name, ".env") }

// inside reports whether p is root or below it (both cleaned, absolute).
func inside(root, p string) bool { return safefile.Inside(root, p) }

// badName is path_outside_project, not usage: the rule confines an agent to
// the project's .env files, and a name outside them is outside that space.
func badName(p string) error {
	return errs.New(errs.PathOutsideProject, "agents may only write files whose names start with .env (e.g. .env.loams, .env)",
		"refusing to write %s: the file name must start with .env", p).With("path", p)
}

func outside(p, root string) error {
	return errs.New(errs.PathOutsideProject, "give a path inside the project directory "+root+", e.g. .env.loams",
		"%s is outside the project directory", p).With("path", p).With("project_dir", root)
}
