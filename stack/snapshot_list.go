package stack

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"loams.dev/cli/treecopy"
)

// Snapshots lists the stack's snapshots, oldest first.
func (sv *Supervisor) Snapshots(name string) ([]Snapshot, error) {
	s, err := Load(sv.Home, name)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(s.SnapshotsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return []Snapshot{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []Snapshot{}
	for _, e := range entries {
		if snapName(e.Name()) != nil {
			continue // a staging directory, or not ours
		}
		data, err := os.ReadFile(filepath.Join(s.SnapshotsDir(), e.Name(), "snapshot.json"))
		if err != nil {
			continue
		}
		var m Snapshot
		if json.Unmarshal(data, &m) == nil {
			m.Name = e.Name()
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out, nil
}

// DeleteSnapshot removes one snapshot.
func (sv *Supervisor) DeleteSnapshot(name, snap string) error {
	s, err := Load(sv.Home, name)
	if err != nil {
		return err
	}
	dir, err := s.snapshotDir(snap)
	if err != nil {
		return err
	}
	// Renamed aside first: a delete cut short leaves a staging directory
	// the next command sweeps, never a snapshot missing half its files.
	stage, err := treecopy.Stage(dir)
	if err != nil {
		return err
	}
	if err := os.Remove(stage.Dir); err != nil {
		return err
	}
	if err := os.Rename(dir, stage.Dir); err != nil {
		return err
	}
	stage.Abort()
	return nil
}
