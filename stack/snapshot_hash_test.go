package stack_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"loams.dev/cli/treecopy"
	"loams.dev/cli/treecopy/treecopytest"
)

// manifestSums reads a snapshot's manifest.json as treecopytest.Sums
// lists a tree, checking it against manifest_sha256.
func manifestSums(t *testing.T, snapDir, sum string) (map[string]string, []treecopy.Entry) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(snapDir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if h := sha256.Sum256(data); hex.EncodeToString(h[:]) != sum {
		t.Errorf("manifest.json hashes to %x, snapshot.json says %s", h, sum)
	}
	var m struct{ Files []treecopy.Entry }
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range m.Files {
		switch {
		case e.Path == "data/argv.json": // rewritten at every start, as in Sums
		case e.Symlink != "":
			out[e.Path] = "symlink:" + e.Symlink
		default:
			out[e.Path] = "sha256:" + e.SHA256
		}
	}
	return out, m.Files
}

// A snapshot hashes what the cache does not know after the stack is
// back (from the staged copy), yet its manifest is the data's; a repeat
// snapshot takes the hashes of unchanged files from the cache the first
// one filled.
func TestSnapshotManifestIsTheDataAndRepeatsUseTheCache(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.create(t, "dev", true, "native"); err != nil {
		t.Fatal(err)
	}
	dir := f.sv.Home.Stack("dev")
	time.Sleep(250 * time.Millisecond) // the data is older than the cache's racy margin
	original := treecopytest.Sums(t, dir)

	one, err := f.sv.Snapshot(ctx, "dev", "one")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := manifestSums(t, one.Path, one.ManifestSHA256)
	treecopytest.Equal(t, "manifest of the first snapshot", got, original)
	treecopytest.Equal(t, "first snapshot's files", treecopytest.Sums(t, one.Path), original)

	// Poison the cache's hash of a file the server does not touch: the
	// repeat reports the poison only if it took the hash from the cache.
	cachePath := filepath.Join(dir, "snapshots", ".hashes.json")
	data, err := os.ReadFile(cachePath)
	if err != nil {
		t.Fatal(err)
	}
	var cache map[string]map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // nanoseconds do not survive a float64
	if err := dec.Decode(&cache); err != nil {
		t.Fatal(err)
	}
	nodes := filepath.Join(dir, "graph-data", "graph", "nodes.bin")
	if _, ok := cache[nodes]; !ok {
		t.Fatalf("the first snapshot did not fill the cache for %s: %v", nodes, cache)
	}
	cache[nodes]["sha256"] = "poisoned"
	data, _ = json.Marshal(cache)
	if err := os.WriteFile(cachePath, data, 0o600); err != nil {
		t.Fatal(err)
	}

	two, err := f.sv.Snapshot(ctx, "dev", "two")
	if err != nil {
		t.Fatal(err)
	}
	got2, _ := manifestSums(t, two.Path, two.ManifestSHA256)
	if got2["graph-data/graph/nodes.bin"] != "sha256:poisoned" {
		t.Errorf("the repeat hashed nodes.bin again (%s): the cache was not used", got2["graph-data/graph/nodes.bin"])
	}
	delete(got2, "graph-data/graph/nodes.bin")
	delete(original, "graph-data/graph/nodes.bin")
	treecopytest.Equal(t, "manifest of the repeat", got2, original)
}
