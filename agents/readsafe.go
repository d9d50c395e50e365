package agents

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// maxConfigSize caps what loams reads from a host's config file: the real
// ones are a few KiB, and a committed `.mcp.json` of any size must not
// grow memory without bound. A host whose file is its state too (Claude
// Code's ~/.claude.json, seen at 8 to 100 MB) raises it (Scope.MaxSize).
const maxConfigSize = 4 << 20

// configFile is a config path as found on disk: where its bytes are (through
// a symlink, the file it leads to) and whether it exists.
type configFile struct {
	path, target string
	data         []byte
	existed      bool
	mode         fs.FileMode
}

// openConfig reads a host's config file without trusting what is at
// the path: a final symlink is resolved first and, when root is set (a
// project scope), must stay inside root, as env_export requires; only a
// regular file of at most maxConfigSize is read, and the open never blocks
// (a FIFO or a device is refused by its type, not read). A directory in
// the file's place, or a file in place of one of its directories, is
// config_unreadable with a hint, never an internal error.
func openConfig(path, root string, limit int64) (*configFile, error) {
	if limit <= 0 {
		limit = maxConfigSize
	}
	cf := &configFile{path: path, target: path}
	target, exists, err := resolveConfig(path)
	if err != nil {
		return nil, err
	}
	cf.target = target
	if root != "" {
		realRoot, err := filepath.EvalSymlinks(root)
		if err != nil {
			realRoot = filepath.Clean(root)
		}
		if !safefile.Inside(realRoot, target) {
			return nil, errs.New(errs.PathOutsideProject,
				"a project's agent config must be a file inside the project; replace the link with the file itself, or use --scope user",
				"%s leads to %s, outside the project %s; loams does not read or edit it", path, target, realRoot).
				With("path", path).With("target", target).With("project_dir", realRoot)
		}
	}
	if !exists {
		return cf, nil
	}
	data, mode, err := safefile.ReadRegular(target, path, limit)
	if err != nil {
		return nil, err
	}
	cf.data, cf.existed, cf.mode = data, true, mode
	return cf, nil
}

// resolveConfig returns the file path leads to (its symlinks and its
// directories' resolved) and whether it exists. A missing file resolves
// through its nearest existing directory, so a project's .vscode that is a
// link out of the project is seen before anything is created in it.
func resolveConfig(path string) (string, bool, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false, safefile.Unreadable(path, err)
	}
	fi, err := os.Lstat(abs)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			if notDir(err) {
				return "", false, parentIsFile(path)
			}
			return "", false, errs.New(errs.ConfigUnreadable, "remove the broken link, or create the file it points to, and run the command again",
				"%s is a symlink to a missing file", path).With("path", path)
		}
		return real, true, nil
	case err == nil:
		dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
		if err != nil {
			return "", false, safefile.Unreadable(path, err)
		}
		return filepath.Join(dir, filepath.Base(abs)), true, nil
	case notDir(err):
		return "", false, parentIsFile(path)
	case !errors.Is(err, fs.ErrNotExist):
		return "", false, safefile.Unreadable(path, err)
	}
	// Missing: resolve the nearest directory that exists.
	rest := filepath.Base(abs)
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		di, err := os.Stat(dir)
		if err == nil {
			if !di.IsDir() {
				return "", false, parentIsFile(path)
			}
			real, err := filepath.EvalSymlinks(dir)
			if err != nil {
				return "", false, safefile.Unreadable(path, err)
			}
			return filepath.Join(real, rest), false, nil
		}
		if notDir(err) {
			return "", false, parentIsFile(path)
		}
		if !errors.Is(err, fs.ErrNotExist) || filepath.Dir(dir) == dir {
			return "", false, safefile.Unreadable(path, err)
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

func notDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

func parentIsFile(path string) error {
	return errs.New(errs.ConfigUnreadable, "one of the directories of "+path+" is a file; move it aside and run the command again",
		"cannot use %s: a file stands where a directory of its path should be", path).With("path", path)
}
