package envfile

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
	"loams.dev/cli/project"
)

// Target says where an export goes. Paths are final: the CLI passes the
// user's paths as given, the MCP tool passes them through project.Confine.
type Target struct {
	Write     string // .env.loams to replace; "" for none
	Merge     string // file to merge the block into; "" for none
	Gitignore bool   // add Write to the .gitignore beside it when needed
	Version   string // loams version for the header line
	Now       time.Time
}

// Result is what an export did; it holds no secret.
type Result struct {
	Path             string   `json:"path"`
	MergedInto       string   `json:"merged_into"`
	Written          []string `json:"written"`
	GitignoreUpdated string   `json:"gitignore_updated"`
	// Unchanged: Write already held these settings, so it was left alone
	// (dev servers that reload on .env changes do not restart for nothing).
	Unchanged bool `json:"-"`
}

// Export writes the stack's settings to t.Write (atomically, 0600) and/or
// merges its block into t.Merge (keeping that file's mode; 0600 if new). The
// merge is checked first, so a file_conflict leaves every file untouched.
func Export(ctx context.Context, s Stack, t Target) (Result, error) {
	res := Result{Written: s.Names()}
	var merged []byte
	var mergeTo string
	var mergePerm os.FileMode = 0o600
	if t.Merge != "" {
		mergeTo = realPath(t.Merge)
		src, err := os.ReadFile(mergeTo)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return Result{}, fileError(t.Merge, err)
		default:
			fi, err := os.Stat(mergeTo)
			if err != nil {
				return Result{}, fileError(t.Merge, err)
			}
			mergePerm = fi.Mode().Perm()
		}
		if merged, err = Merge(src, s, t.Merge); err != nil {
			return Result{}, err
		}
	}
	if t.Write != "" {
		to := realPath(t.Write)
		if fi, err := os.Stat(to); err == nil && fi.IsDir() {
			return Result{}, errs.New(errs.Usage, "pass a file name, e.g. .env.loams", "%s is a directory", t.Write).With("path", t.Write)
		}
		if Current(to, s) {
			res.Unchanged = true
		} else if err := safefile.Write(to, s.Dotenv(t.Version, t.Now), 0o600); err != nil {
			return Result{}, fileError(t.Write, err)
		}
		res.Path = t.Write
		if t.Gitignore {
			gi, err := project.EnsureIgnored(ctx, absOr(to))
			if err != nil {
				return res, fileError(filepath.Join(filepath.Dir(t.Write), ".gitignore"), err)
			}
			res.GitignoreUpdated = gi
		}
	}
	if mergeTo != "" {
		if err := safefile.Write(mergeTo, merged, mergePerm); err != nil {
			return res, fileError(t.Merge, err)
		}
		res.MergedInto = t.Merge
	}
	return res, nil
}

// Current reports whether the .env.loams at path already holds exactly s's
// settings, mode 0600: the header line with its time may differ.
func Current(path string, s Stack) bool {
	old, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	fi, err := os.Stat(path)
	header, body, ok := strings.Cut(string(old), "\n")
	return err == nil && fi.Mode().Perm() == 0o600 && ok &&
		strings.HasPrefix(header, headerPrefix) && body == s.lines("\n")
}

// realPath follows a symlink so a write replaces the file it points to and
// keeps the user's link, instead of replacing the link with a file.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func fileError(path string, err error) error {
	code := errs.Forbidden
	hint := "check the permissions of " + path + " and its directory"
	if errors.Is(err, fs.ErrNotExist) {
		code, hint = errs.Usage, "create the directory of "+path+" first, or write into the project directory"
	}
	return errs.New(code, hint, "cannot write %s: %v", path, err).With("path", path).Wrap(err)
}
