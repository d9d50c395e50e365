package project

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// IgnoreEdit is the lines to append to one .gitignore, planned before any
// file is written so that a .gitignore we cannot write stops the export
// before the key lands anywhere.
type IgnoreEdit struct {
	Path  string   // the .gitignore beside the files
	Real  string   // the file written: Path, or its target when Path is a link inside the root
	Names []string // lines appended
	Old   []byte   // the content before; nil when the file is new
	New   []byte
	Perm  os.FileMode
}

// Apply writes the edit atomically.
func (e *IgnoreEdit) Apply() error { return safefile.Write(e.Real, e.New, e.Perm) }

// Undo puts the .gitignore back as it was.
func (e *IgnoreEdit) Undo() error {
	if e.Old == nil {
		return os.Remove(e.Real)
	}
	return safefile.Write(e.Real, e.Old, e.Perm)
}

// PlanIgnore decides, for each file (absolute, resolved), whether git
// ignores it, and plans the lines to add to the .gitignore beside it when
// git (or the .gitignore beside it, outside a repository) does not ignore
// it. Nothing is written.
// root bounds the .gitignore: a .gitignore that is a link leaving root is
// never read or written (path_outside_project), one that is a directory or
// read-only is forbidden.
func PlanIgnore(ctx context.Context, root string, files ...string) ([]*IgnoreEdit, error) {
	var edits []*IgnoreEdit
	byPath := map[string]*IgnoreEdit{}
	for _, file := range files {
		dir, name := filepath.Dir(file), filepath.Base(file)
		gi := filepath.Join(dir, ".gitignore")
		e := byPath[gi]
		if e == nil {
			var err error
			if e, err = inspect(root, gi); err != nil && !needed(ctx, dir, name, nil) {
				continue // already ignored elsewhere: this .gitignore is not ours to touch
			} else if err != nil {
				return nil, err
			}
		}
		if !needed(ctx, dir, name, e) || slices.Contains(e.Names, name) {
			continue
		}
		if byPath[gi] == nil {
			byPath[gi] = e
			edits = append(edits, e)
		}
		e.Names = append(e.Names, name)
		e.New = appendLine(e.New, name)
	}
	return edits, nil
}

// needed reports whether name in dir must be added: git (or, outside a
// repository or without git, the .gitignore beside it) does not ignore
// it. A project that is not a git repository yet gets the line too: the
// protection must hold once `git init && git add -A` runs, or the key is
// committed. e is the inspected .gitignore (nil: do not read it).
func needed(ctx context.Context, dir, name string, e *IgnoreEdit) bool {
	ignored, inRepo, err := gitSays(ctx, dir, name)
	if err != nil || !inRepo {
		ignored = false // decided from the .gitignore beside it, below
	}
	// git never follows a .gitignore that is a symlink, so what we appended
	// through one is read here, or every run would append it again.
	return !ignored && !(e != nil && listed(e.Old, name))
}

// inspect reads the .gitignore at gi as far as root allows.
func inspect(root, gi string) (*IgnoreEdit, error) {
	real, err := safefile.ResolveInside(root, gi)
	switch {
	case errors.Is(err, safefile.ErrOutside), errors.Is(err, safefile.ErrDanglingLink):
		return nil, errs.New(errs.PathOutsideProject,
			"replace the symlink "+gi+" with a file of the project, or add the file to .gitignore yourself (`loams env export --no-gitignore` then skips this step)",
			"%s is a symlink that leads outside the project %s; loams neither reads nor writes through it", gi, root).
			With("path", gi).With("project_dir", root).
			ForAgent("ask the user to replace the symlink " + gi + " with a file of the project, then call env_export again")
	case err != nil:
		return nil, ignoreError(gi, err)
	}
	if err := safefile.CheckWritable(real); err != nil {
		return nil, ignoreError(gi, err)
	}
	e := &IgnoreEdit{Path: gi, Real: real, Perm: 0o644}
	b, err := os.ReadFile(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, ignoreError(gi, err)
	default:
		e.Old, e.Perm = append([]byte{}, b...), safefile.Mode(real, 0o644) // non-nil even when empty: it existed
	}
	e.New = append([]byte{}, e.Old...)
	return e, nil
}

func ignoreError(gi string, err error) error {
	return errs.New(errs.Forbidden, "make "+gi+" a writable file, or add the file to .gitignore yourself (`loams env export --no-gitignore` then skips this step)",
		"cannot add to %s: %v; nothing was written", gi, errors.Unwrap(err)).With("path", gi).Wrap(err).
		ForAgent("ask the user to make " + gi + " a writable file, then call env_export again")
}

// listed reports whether a .gitignore's patterns (anchored or not, the last
// match winning over negations) match name.
func listed(gitignore []byte, name string) bool {
	match := false
	sc := bufio.NewScanner(bytes.NewReader(gitignore))
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
	return match
}

// appendLine adds line after a line break if b lacks a final one, in b's own
// line endings.
func appendLine(b []byte, line string) []byte {
	eol := "\n"
	if bytes.Contains(b, []byte("\r\n")) {
		eol = "\r\n"
	}
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, eol...)
	}
	return append(b, line+eol...)
}
