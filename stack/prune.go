package stack

import (
	"errors"
	"io/fs"
	"os"
)

// Orphan is a stack whose recorded project directory is gone (a removed
// git worktree, a deleted checkout).
type Orphan struct {
	Name    string `json:"name"`
	Project string `json:"project"`
}

// Orphans lists the stacks `stack prune` would delete. A stack that
// records no project, or whose project is there (or cannot be checked),
// is never one of them.
func (sv *Supervisor) Orphans() ([]Orphan, error) {
	names, err := List(sv.Home)
	if err != nil {
		return nil, err
	}
	out := []Orphan{}
	for _, n := range names {
		s, err := Load(sv.Home, n)
		if err != nil || s.Project == "" {
			continue
		}
		if _, err := os.Stat(s.Project); errors.Is(err, fs.ErrNotExist) {
			out = append(out, Orphan{Name: n, Project: s.Project})
		}
	}
	return out, nil
}
