package stack

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/errs"
)

// confineStorage is parseStorage for a path an agent chose: relative to
// root (the project directory), never the process's working directory, and
// resolved through every symlink that exists so far, it must land inside
// root or LOAMS_HOME. An agent must not put a stack's data in /etc or a
// home directory's dotfiles.
func confineStorage(arg, root, loamsHome string) (Storage, error) {
	kind, path, _ := strings.Cut(arg, ":")
	if !filepath.IsAbs(path) {
		if root == "" {
			return Storage{}, errs.New(errs.PathOutsideProject, "give an absolute path inside LOAMS_HOME, or start the agent in a project",
				"storage %q is relative and there is no project directory to resolve it against", arg).With("storage", arg)
		}
		path = filepath.Join(root, path)
	}
	real, err := resolveExisting(filepath.Clean(path))
	if err != nil {
		return Storage{}, err
	}
	var allowed []string
	for _, d := range []string{root, loamsHome} {
		if d == "" {
			continue
		}
		if r, err := filepath.EvalSymlinks(d); err == nil {
			allowed = append(allowed, r)
		}
	}
	for _, d := range allowed {
		if within(d, real) {
			if kind == "mount" {
				if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
					return Storage{}, errs.New(errs.Usage, "mount the volume first, or use dir:PATH", "mount point %s is not a directory", real).With("storage", arg)
				}
			}
			return Storage{Kind: kind, Path: real}, nil
		}
	}
	return Storage{}, errs.New(errs.PathOutsideProject,
		"give a path inside the project directory or LOAMS_HOME (e.g. dir:.loams-data), or ask the user to run `loams stack create --storage` themselves",
		"storage %s resolves to %s, outside the project directory and LOAMS_HOME", arg, real).
		ForAgent(`call stack_create with {"storage":"dir:.loams-data"} (inside the project), or `+errs.AskUser("loams stack create --storage "+arg)).
		With("storage", arg).With("resolved", real).With("allowed", allowed)
}

// resolveExisting follows the symlinks of the longest part of p that
// exists and appends the rest, which is created later as plain
// directories below it.
func resolveExisting(p string) (string, error) {
	rest := ""
	for cur := p; ; cur = filepath.Dir(cur) {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if _, lerr := os.Lstat(cur); lerr == nil {
			// It exists yet does not resolve: a dangling link, which the
			// server's mkdir would follow wherever it points.
			return "", errs.New(errs.PathOutsideProject, "remove the broken symlink "+cur+" or give another path",
				"storage path %s goes through the broken symlink %s", p, cur).With("path", cur)
		}
		if filepath.Dir(cur) == cur {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
	}
}

// within reports whether p is root or below it (both clean and absolute).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
