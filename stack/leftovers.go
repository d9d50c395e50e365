package stack

import (
	"context"
	"os"
	"path/filepath"

	"loams.dev/cli/treecopy"
)

// ClearLeftovers sweeps what interrupted snapshots, restores and clones
// left (staging directories whose process is gone) and returns what it
// cleared, for the caller to say. A clone killed after it stored its key but before its rename
// leaves a key with no stack: that goes too.
func (sv *Supervisor) ClearLeftovers(ctx context.Context) []string {
	var said []string
	cleared, _ := treecopy.Sweep(sv.Home.StacksDir())
	for _, name := range cleared {
		said = append(said, "an interrupted clone of stack "+name)
		if _, err := os.Stat(specPath(sv.Home, name)); err != nil {
			if store, err := sv.Secrets(ctx); err == nil {
				_ = store.Delete(ctx, name)
			}
		}
	}
	names, _ := List(sv.Home)
	for _, n := range names {
		s, err := Load(sv.Home, n)
		if err != nil {
			continue
		}
		if abandoned(s.dir) { // a create or clone killed before its key was in
			sv.undo(s)
			said = append(said, "an interrupted create of stack "+n)
			continue
		}
		for _, dir := range []string{s.SnapshotsDir(), s.dir, filepath.Dir(s.HotDir())} {
			cleared, _ := treecopy.Sweep(dir)
			for _, c := range cleared {
				said = append(said, "an interrupted copy ("+c+") in "+dir)
			}
		}
	}
	return said
}
