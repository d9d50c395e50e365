package project

import (
	"context"
	"errors"
	"os/exec"
	"time"
)

// gitTimeout bounds each git call: a hung git (a lock, a network
// filesystem) must not hang the MCP server.
const gitTimeout = 10 * time.Second

// git runs git -C dir args and returns its exit code; err means git could
// not answer at all (absent, killed), not a non-zero exit.
func git(ctx context.Context, dir string, args ...string) (int, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	err = exec.CommandContext(ctx, bin, append([]string{"-C", dir}, args...)...).Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode(), nil
	}
	return 0, err
}

// gitSays asks git whether name is ignored in dir; err means git could not
// answer (absent, broken), not that the file is tracked.
func gitSays(ctx context.Context, dir, name string) (ignored, inRepo bool, err error) {
	code, err := git(ctx, dir, "rev-parse", "--is-inside-work-tree")
	if err != nil || code != 0 {
		return false, false, err // non-zero: not a repository
	}
	switch code, err := git(ctx, dir, "check-ignore", "-q", "--", name); {
	case err != nil:
		return false, true, err
	case code == 0:
		return true, true, nil
	case code == 1:
		return false, true, nil
	}
	return false, true, errors.New("git check-ignore failed")
}

// Tracked reports whether git tracks file (absolute, resolved): its content
// is, or will be, in the repository's history. Without git, or outside a
// repository, nothing is tracked.
func Tracked(ctx context.Context, dir, name string) bool {
	code, err := git(ctx, dir, "ls-files", "--error-unmatch", "--", name)
	return err == nil && code == 0
}

// Ignored reports whether git would leave name (in dir) out of a commit:
// ignored, or dir is not in a repository. err means git could not answer.
func Ignored(ctx context.Context, dir, name string) (bool, error) {
	ignored, inRepo, err := gitSays(ctx, dir, name)
	return ignored || (!inRepo && err == nil), err
}
