package stack

import (
	"context"
	"os"
	"path/filepath"

	"loams.dev/cli/treecopy"
)

// RestoreResult is what `stack restore` reports.
type RestoreResult struct {
	Name     string `json:"name"`
	Snapshot string `json:"snapshot"`
	// Before is the snapshot that keeps the data the restore replaced:
	// `loams stack restore NAME <before>` undoes it.
	Before     string `json:"before"`
	DowntimeMS int64  `json:"downtime_ms"`
	Restarted  bool   `json:"restarted"`
}

// Restore puts a snapshot's data in place of the stack's. The current
// data is first kept as snapshot before-restore-<time>, then each tree is
// copied from the snapshot beside its place and renamed in: a restore cut
// short leaves whole directories (and the before-restore snapshot), never
// a half-copied one. The key, ports and .env.loams are not touched; a
// running stack is stopped and started again.
func (sv *Supervisor) Restore(ctx context.Context, name, snap string) (*RestoreResult, error) {
	s, err := LoadTrusted(sv.Home, name)
	if err != nil {
		return nil, err
	}
	from, err := s.snapshotDir(snap)
	if err != nil {
		return nil, err
	}
	incoming := snapshotTrees(from)
	a, err := treecopy.Measure(paths(incoming)...)
	if err != nil {
		return nil, err
	}
	b, err := treecopy.Measure(paths(s.trees())...)
	if err != nil {
		return nil, err
	}
	if err := treecopy.CheckSpace(s.dir, a.Need(s.dir)+b.Need(s.dir)); err != nil {
		return nil, err
	}
	before, err := s.freeSnapName("before-restore-"+sv.now().UTC().Format(timeName), true)
	if err != nil {
		return nil, err
	}
	res := &RestoreResult{Name: name, Snapshot: snap, Before: filepath.Base(before)}
	var sr SnapshotResult
	err = sv.consistent(ctx, s, &sr, func() error {
		if err := sv.keepBefore(ctx, s, before); err != nil {
			return err
		}
		return s.swapIn(ctx, incoming)
	})
	res.DowntimeMS, res.Restarted = sr.DowntimeMS, sr.Restarted
	if err != nil {
		return nil, err
	}
	return res, nil
}

// keepBefore snapshots the stopped stack's data as it is.
func (sv *Supervisor) keepBefore(ctx context.Context, s *Spec, final string) error {
	stage, err := treecopy.Stage(final)
	if err != nil {
		return err
	}
	defer stage.Abort()
	_, later, err := copyTrees(ctx, s.trees(), stage.Dir, s.hashCache())
	if err != nil {
		return err
	}
	entries, err := later.finish(ctx)
	if err != nil {
		return err
	}
	if _, err := sealSnapshot(s, filepath.Base(final), stage.Dir, entries, sv.now()); err != nil {
		return err
	}
	return stage.Commit()
}

// swapIn copies each incoming tree beside the stack's own and renames it
// in; the old tree is renamed into a staging directory and removed. A
// tree the snapshot lacks is removed (the before-restore snapshot has it).
func (s *Spec) swapIn(ctx context.Context, incoming []tree) error {
	place := map[string]string{}
	for _, t := range s.trees() {
		place[t.name] = t.path
	}
	var staged []*treecopy.Staging
	defer func() {
		for _, st := range staged {
			st.Abort()
		}
	}()
	for _, t := range incoming {
		dst, ok := place[t.name]
		if !ok {
			dst = filepath.Join(s.dir, t.name) // an <x>-data the stack no longer has
		}
		st, err := treecopy.Stage(dst)
		if err != nil {
			return err
		}
		staged = append(staged, st)
		if _, err := treecopy.Copy(ctx, t.path, st.Dir); err != nil {
			return err
		}
	}
	// Every copy is whole before the first rename.
	for _, t := range s.trees() {
		if err := discard(t.path); err != nil {
			return err
		}
	}
	for _, st := range staged {
		if err := st.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// discard renames dir into a staging directory of its own and removes it:
// cut short, the next command sweeps what is left.
func discard(dir string) error {
	if !exists(dir) {
		return nil
	}
	st, err := treecopy.Stage(dir)
	if err != nil {
		return err
	}
	if err := os.Remove(st.Dir); err != nil {
		return err
	}
	if err := os.Rename(dir, st.Dir); err != nil {
		st.Abort()
		return err
	}
	st.Abort()
	return nil
}
