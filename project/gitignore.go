package project

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"loams.dev/cli/internal/safefile"
)

// EnsureIgnored makes git ignore file (e.g. <project>/.env.loams) when its
// directory is in a git repository: if `git check-ignore` (or, without git,
// a plain read of the directory's .gitignore) says it is not ignored, its
// name is appended to the .gitignore beside it. It returns the .gitignore it
// changed, or "" when nothing was needed.
func EnsureIgnored(ctx context.Context, file string) (string, error) {
	ignored, inRepo, err := gitSays(ctx, filepath.Dir(file), filepath.Base(file))
	if err != nil {
		// No git binary (or it failed): decide from the files themselves.
		return ensureIgnoredWithoutGit(file)
	}
	return ignore(file, inRepo, ignored)
}

func ensureIgnoredWithoutGit(file string) (string, error) {
	dir, name := filepath.Dir(file), filepath.Base(file)
	ignored, err := listed(filepath.Join(dir, ".gitignore"), name)
	if err != nil {
		return "", err
	}
	return ignore(file, repoAbove(dir), ignored)
}

func ignore(file string, inRepo, ignored bool) (string, error) {
	if !inRepo || ignored {
		return "", nil
	}
	gi := filepath.Join(filepath.Dir(file), ".gitignore")
	return gi, appendLine(gi, filepath.Base(file))
}

// gitSays asks git whether name is ignored in dir; err means git could not
// answer (absent, broken), not that the file is tracked.
func gitSays(ctx context.Context, dir, name string) (ignored, inRepo bool, err error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return false, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := exec.CommandContext(ctx, git, "-C", dir, "rev-parse", "--is-inside-work-tree").Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return false, false, nil // not a repository
		}
		return false, false, err
	}
	err = exec.CommandContext(ctx, git, "-C", dir, "check-ignore", "-q", "--", name).Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false, true, nil
	}
	return false, true, err
}

// repoAbove reports whether dir or an ancestor holds .git.
func repoAbove(dir string) bool {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// listed reports whether a .gitignore pattern (without negations, anchored
// or not) matches name.
func listed(gitignore, name string) (bool, error) {
	b, err := os.ReadFile(gitignore)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	match := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		p := strings.TrimSpace(sc.Text())
		if p == "" || strings.HasPrefix(p, "#") {
			continue
		}
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(strings.TrimPrefix(p, "!"), "/")
		if ok, _ := filepath.Match(p, name); ok {
			match = !neg
		}
	}
	return match, nil
}

// appendLine adds line to path, after a line break if the file lacks a final
// one, in the file's own line endings; the file keeps its mode.
func appendLine(path, line string) error {
	b, err := os.ReadFile(path)
	perm := os.FileMode(0o644)
	if err == nil {
		if fi, err := os.Stat(path); err == nil {
			perm = fi.Mode().Perm()
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	eol := "\n"
	if bytes.Contains(b, []byte("\r\n")) {
		eol = "\r\n"
	}
	out := append([]byte{}, b...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, eol...)
	}
	out = append(out, line+eol...)
	return safefile.Write(path, out, perm)
}
