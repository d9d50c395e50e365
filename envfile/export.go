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
	Gitignore bool   // add Write and Merge to the .gitignore beside them when needed
	// Root is the project directory: a .gitignore that is a link leaving it is
	// never read or written. "" (or a file outside it) means the file's own
	// directory.
	Root    string
	Version string // loams version for the header line
	Now     time.Time
	// Force rewrites a file (or replaces a block) written for another
	// target; without it that is env_target_mismatch (target.go).
	Force bool
}

// Result is what an export did; it holds no secret.
type Result struct {
	Path             string   `json:"path"`
	MergedInto       string   `json:"merged_into"`
	Written          []string `json:"written"`
	GitignoreUpdated string   `json:"gitignore_updated"`
	// Ignored are the names appended to GitignoreUpdated.
	Ignored []string `json:"-"`
	// Tightened lists files that held looser modes and now are 0600, as
	// every file holding the key must be.
	Tightened []string `json:"-"`
	// Unchanged: Write already held these settings, so it was left alone
	// (dev servers that reload on .env changes do not restart for nothing).
	Unchanged bool `json:"-"`
}

// keyMode is the mode of every file that holds the key.
const keyMode os.FileMode = 0o600

// Export writes the stack's settings to t.Write (atomically, 0600) and/or
// merges its block into t.Merge (which ends 0600 too). It has one outcome:
// every check (markers, executed, tracked or read-only targets, the
// .gitignore) passes before the first byte is written, and a write that
// fails still undoes the ones before it, so on error nothing has changed.
func Export(ctx context.Context, s Stack, t Target) (Result, error) {
	res := Result{Written: s.Names()}
	var steps []step
	var keyFiles, mergeFiles []string // resolved, for .gitignore: .env.loams first
	if t.Merge != "" {
		st, err := planMerge(ctx, s, t.Merge, shown(t.Root, t.Merge), t.Force)
		if err != nil {
			return Result{}, err
		}
		steps = append(steps, st)
		mergeFiles = append(mergeFiles, st.real)
		if st.tightened {
			res.Tightened = append(res.Tightened, t.Merge)
		}
		res.MergedInto = t.Merge
	}
	if t.Write != "" {
		real, err := keyTarget(ctx, t.Write, shown(t.Root, t.Write))
		if err != nil {
			return Result{}, err
		}
		if err := checkWriteTarget(real, shown(t.Root, t.Write), s, t.Force); err != nil {
			return Result{}, err
		}
		keyFiles = append(keyFiles, real)
		res.Path = t.Write
		if Current(real, s) {
			res.Unchanged = true
		} else {
			st := step{real: real, data: s.Dotenv(t.Version, t.Now), perm: keyMode}
			if err := st.snapshot(); err != nil {
				return Result{}, fileError(t.Write, err)
			}
			// .env.loams goes first, so a failed merge leaves no key behind.
			steps = append([]step{st}, steps...)
		}
	}
	if len(keyFiles) == 1 && len(mergeFiles) == 1 && keyFiles[0] == mergeFiles[0] {
		// Replacing and merging one file: the merge would undo the replace.
		return Result{}, errs.New(errs.Usage, "write .env.loams and merge into another file, e.g. --write .env.loams --merge .env",
			"%s is both the file to write and the file to merge into", shown(t.Root, t.Merge)).With("path", t.Merge).
			ForAgent(errs.ToolCall("env_export", map[string]any{"path": ".env.loams", "merge_into": ".env"}))
	}
	keyFiles = append(keyFiles, mergeFiles...)
	if t.Gitignore && len(keyFiles) > 0 {
		edits, err := project.PlanIgnore(ctx, rootFor(t.Root, keyFiles[0]), keyFiles...)
		if err != nil {
			return Result{}, err
		}
		for _, e := range edits {
			// The .gitignore first: the key never sits in a file git would add.
			steps = append([]step{ignoreStep(e)}, steps...)
			res.GitignoreUpdated, res.Ignored = e.Path, append(res.Ignored, e.Names...)
		}
	}
	if err := apply(steps); err != nil {
		return Result{}, err
	}
	return res, nil
}

// ignoreStep is a planned .gitignore edit as a step that can be undone.
func ignoreStep(e *project.IgnoreEdit) step {
	return step{real: e.Real, data: e.New, perm: e.Perm, old: e.Old, oldPerm: e.Perm, existed: e.Old != nil}
}

// keyTarget resolves a file that will hold the key and refuses the ones
// that must not (executed, tracked, read-only, not a file).
// show is p as the user knows it, for messages.
func keyTarget(ctx context.Context, p, show string) (string, error) {
	real, err := safefile.Resolve(p)
	if errors.Is(err, safefile.ErrDanglingLink) {
		return "", errs.New(errs.PathOutsideProject, "remove the broken symlink "+p+" and try again",
			"%s is a symlink to a missing file", p).With("path", p)
	}
	if err != nil {
		return "", fileError(p, err)
	}
	if fi, err := os.Stat(real); err == nil && fi.IsDir() {
		return "", errs.New(errs.Usage, "pass a file name, e.g. .env.loams", "%s is a directory", p).With("path", p)
	}
	return real, project.CheckKeyFile(ctx, show, real)
}

func planMerge(ctx context.Context, s Stack, p, show string, force bool) (step, error) {
	real, err := keyTarget(ctx, p, show)
	if err != nil {
		return step{}, err
	}
	st := step{real: real, perm: keyMode}
	if err := st.snapshot(); err != nil {
		return step{}, fileError(p, err)
	}
	st.tightened = st.existed && st.oldPerm != keyMode
	if other := otherBlock(st.old, s); other != "" {
		if !force {
			return step{}, mismatch(show, other, s.blockLabel())
		}
		st.old = dropBlocks(st.old, other)
	}
	if st.data, err = Merge(st.old, s, p); err != nil {
		return step{}, err
	}
	return st, nil
}

// shown is p relative to the project when it is inside: the agent said
// ".env.example", and the message should too.
func shown(root, p string) string {
	if root == "" {
		return p
	}
	if rel, err := filepath.Rel(root, p); err == nil && safefile.Inside(root, p) {
		return rel
	}
	return p
}

// rootFor is the directory a .gitignore link may not leave: the project,
// unless the file is elsewhere (the CLI takes any path), then its directory.
func rootFor(root, file string) string {
	if r, err := filepath.EvalSymlinks(root); err == nil && root != "" && safefile.Inside(r, file) {
		return r
	}
	return filepath.Dir(file)
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
	return err == nil && fi.Mode().Perm() == keyMode && ok &&
		strings.HasPrefix(header, headerPrefix) && body == s.lines("\n")
}

func fileError(path string, err error) error {
	code := errs.Forbidden
	hint := "check the permissions of " + path + " and its directory"
	if errors.Is(err, fs.ErrNotExist) {
		code, hint = errs.Usage, "create the directory of "+path+" first, or write into the project directory"
	}
	return errs.New(code, hint, "cannot write %s: %v", path, err).With("path", path).Wrap(err)
}
