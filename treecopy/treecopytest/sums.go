// Package treecopytest compares stacks' data trees in tests: every file's
// SHA-256 and every symlink's target, by path.
package treecopytest

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"loams.dev/cli/treecopy"
)

// Trees are the data directories of a stand-in stack, by their snapshot
// names.
var Trees = []string{"data", "hot", "graph-data"}

// Sums is "tree/path" → "sha256:…" or "symlink:target" for the trees
// below dir (a stack's directory or a snapshot's). data/argv.json is left
// out: the stand-in rewrites it at every start with the stack's own ports.
func Sums(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, tree := range Trees {
		entries, err := treecopy.Manifest(filepath.Join(dir, tree))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if tree == "data" && e.Path == "argv.json" {
				continue
			}
			if e.Symlink != "" {
				out[tree+"/"+e.Path] = "symlink:" + e.Symlink
			} else {
				out[tree+"/"+e.Path] = "sha256:" + e.SHA256
			}
		}
	}
	return out
}

// Equal fails t unless two Sums agree, naming what differs.
func Equal(t testing.TB, what string, got, want map[string]string) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: nothing to compare (no data files)", what)
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			t.Errorf("%s: %s is %q, want %q", what, k, got[k], want[k])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: %s should not be there", what, k)
		}
	}
}
