package stack_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
	"loams.dev/cli/treecopy/treecopytest"
)

// put writes a file through the running stand-in, as a migration would.
func (f *fixture) put(t *testing.T, name, dir, path, body string) {
	t.Helper()
	d, err := f.sv.Describe(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := f.store.Get(context.Background(), name)
	url := fmt.Sprintf("%s/testserver/put?dir=%s&path=%s", d.Engines[0].Endpoints["http"], dir, path)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key.Reveal())
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("put %s: %v %v", path, err, resp)
	}
	resp.Body.Close()
}

func TestSnapshotRestoreAndCloneRoundTrip(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.create(t, "dev", true, "native"); err != nil {
		t.Fatal(err)
	}
	dir := f.sv.Home.Stack("dev")
	original := treecopytest.Sums(t, dir)
	if _, ok := original["data/current"]; !ok || original["graph-data/graph/nodes.bin"] == "" {
		t.Fatalf("the stand-in wrote no data: %v", original)
	}
	key, _ := f.store.Get(ctx, "dev")
	before, _ := f.sv.Describe(ctx, "dev")

	snap, err := f.sv.Snapshot(ctx, "dev", "before-migration")
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Restarted || snap.DowntimeMS <= 0 || snap.Files != int64(len(original))+1 || len(snap.ManifestSHA256) != 64 {
		t.Errorf("snapshot result %+v", snap)
	}
	treecopytest.Equal(t, "snapshot", treecopytest.Sums(t, snap.Path), original)
	if d, _ := f.sv.Describe(ctx, "dev"); d.State != stack.Running {
		t.Fatalf("not running again after the snapshot: %s", d.State)
	}
	if _, err := f.sv.Snapshot(ctx, "dev", "before-migration"); code(err) != errs.SnapshotExists {
		t.Errorf("same name again: %v", err)
	}
	if _, err := f.sv.Snapshot(ctx, "dev", "Bad/Name"); code(err) != errs.Usage {
		t.Errorf("bad name: %v", err)
	}

	// The "migration": the server rewrites one file and adds another.
	f.put(t, "dev", "data", "catalog.json", `{"v":2}`)
	f.put(t, "dev", "hot", "cache/0003.blk", "new block")
	migrated := treecopytest.Sums(t, dir)

	res, err := f.sv.Restore(ctx, "dev", "before-migration")
	if err != nil {
		t.Fatal(err)
	}
	treecopytest.Equal(t, "restored", treecopytest.Sums(t, dir), original)
	treecopytest.Equal(t, "before-restore", treecopytest.Sums(t, filepath.Join(dir, "snapshots", res.Before)), migrated)
	after, _ := f.sv.Describe(ctx, "dev")
	key2, _ := f.store.Get(ctx, "dev")
	if !res.Restarted || after.State != stack.Running || key2.Reveal() != key.Reveal() ||
		after.Engines[0].Endpoints["http"] != before.Engines[0].Endpoints["http"] {
		t.Errorf("restore changed the stack: %+v %+v", res, after)
	}
	if _, err := f.sv.Restore(ctx, "dev", "nope"); code(err) != errs.SnapshotNotFound || errs.SnapshotNotFound.ExitCode() != 4 {
		t.Errorf("missing snapshot: %v", err)
	}

	// Clones: of the live stack, and of a snapshot.
	live, _, err := f.sv.Clone(ctx, stack.CloneOptions{Name: "feature", From: "dev", Start: true, Wait: 30 * time.Second, PortBase: portBase(t)})
	if err != nil {
		t.Fatal(err)
	}
	treecopytest.Equal(t, "clone", treecopytest.Sums(t, f.sv.Home.Stack("feature")), original)
	ckey, _ := f.store.Get(ctx, "feature")
	if live.State != stack.Running || ckey.Reveal() == key.Reveal() || live.Engines[0].Endpoints["http"] == before.Engines[0].Endpoints["http"] {
		t.Errorf("clone shares key or ports with its source: %+v", live)
	}
	fromSnap, _, err := f.sv.Clone(ctx, stack.CloneOptions{Name: "review", From: "dev@" + res.Before, PortBase: portBase(t)})
	if err != nil {
		t.Fatal(err)
	}
	treecopytest.Equal(t, "clone of a snapshot", treecopytest.Sums(t, f.sv.Home.Stack("review")), migrated)
	if fromSnap.State != stack.Stopped {
		t.Errorf("clone without start: %s", fromSnap.State)
	}
	treecopytest.Equal(t, "source after clones", treecopytest.Sums(t, dir), original)

	for _, tc := range []struct {
		o    stack.CloneOptions
		want errs.Code
	}{
		{stack.CloneOptions{Name: "x1", From: "ghost"}, errs.StackNotFound},
		{stack.CloneOptions{Name: "x2", From: "dev@ghost"}, errs.SnapshotNotFound},
		{stack.CloneOptions{Name: "Bad", From: "dev"}, errs.Usage},
		{stack.CloneOptions{Name: "feature", From: "dev"}, errs.StackExists},
	} {
		if _, _, err := f.sv.Clone(ctx, tc.o); code(err) != tc.want {
			t.Errorf("%+v: %v, want %s", tc.o, err, tc.want)
		}
	}
	list, err := f.sv.Snapshots("dev")
	if err != nil || len(list) != 2 {
		t.Fatalf("snapshots: %v %+v", err, list)
	}
	if err := f.sv.DeleteSnapshot("dev", "before-migration"); err != nil {
		t.Fatal(err)
	}
	if err := f.sv.DeleteSnapshot("dev", "before-migration"); code(err) != errs.SnapshotNotFound {
		t.Errorf("deleting twice: %v", err)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "snapshots", "[a-z0-9]*"))
	if len(entries) != 1 {
		t.Errorf("left in snapshots/: %v", entries)
	}
}

// What a killed snapshot or restore leaves (a staging directory beside a
// lock nobody holds) is cleared by the next Supervisor user, and said.
func TestClearLeftoversOfKilledSnapshotAndRestore(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if _, err := f.create(t, "dev", false, "native"); err != nil {
		t.Fatal(err)
	}
	dir := f.sv.Home.Stack("dev")
	dead := []string{filepath.Join(dir, "snapshots", ".staging-snap1-0a0b0c"), filepath.Join(dir, ".staging-data-0d0e0f")}
	for _, d := range dead {
		if err := os.MkdirAll(filepath.Join(d, "segments"), 0o700); err != nil {
			t.Fatal(err)
		}
		_ = os.WriteFile(d+".lock", nil, 0o600)
	}
	said := f.sv.ClearLeftovers(context.Background())
	if len(said) != 2 || !strings.Contains(strings.Join(said, "\n"), "snap1") {
		t.Errorf("said %q", said)
	}
	for _, d := range dead {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s is still there", d)
		}
		if _, err := os.Stat(d + ".lock"); !os.IsNotExist(err) {
			t.Errorf("%s.lock is still there", d)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err != nil {
		t.Errorf("the stack's own data went too: %v", err)
	}
}

// A stack whose hot data lives elsewhere (--storage dir:PATH): its hot/ is
// snapshotted and restored in place (staged beside it, on its own file
// system), and a clone keeps its hot data in its own directory.
func TestSnapshotWithStorageElsewhere(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	store := filepath.Join(t.TempDir(), "fast")
	if _, err := f.sv.Create(ctx, stack.CreateOptions{Name: "ext", Engines: []string{"native"}, ServerBinary: f.bin,
		PortBase: portBase(t), Storage: "dir:" + store, Start: true, Wait: 30 * time.Second}); err != nil {
		t.Fatal(err)
	}
	hot := filepath.Join(store, "hot", "cache", "0001.blk")
	want, err := os.ReadFile(hot)
	if err != nil {
		t.Fatalf("the stand-in wrote no hot data in the storage path: %v", err)
	}
	snap, err := f.sv.Snapshot(ctx, "ext", "")
	if err != nil {
		t.Fatal(err)
	}
	if !loamsTimeName(snap.Name) {
		t.Errorf("default name %q is not the UTC time", snap.Name)
	}
	_ = os.WriteFile(hot, []byte("changed"), 0o600)
	if _, err := f.sv.Restore(ctx, "ext", snap.Name); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(hot); string(got) != string(want) {
		t.Error("the hot data in the storage path was not restored")
	}
	if entries, _ := filepath.Glob(filepath.Join(store, ".staging-*")); len(entries) > 0 {
		t.Errorf("left in the storage path: %v", entries)
	}
	if _, _, err := f.sv.Clone(ctx, stack.CloneOptions{Name: "ext2", From: "ext@" + snap.Name, PortBase: portBase(t)}); err != nil {
		t.Fatal(err)
	}
	spec, _ := os.ReadFile(filepath.Join(f.sv.Home.Stack("ext2"), "stack.toml"))
	if !strings.Contains(string(spec), `path = "`+f.sv.Home.Stack("ext2")+`"`) {
		t.Errorf("the clone shares or guesses a storage path:\n%s", spec)
	}
	if got, _ := os.ReadFile(filepath.Join(f.sv.Home.Stack("ext2"), "hot", "cache", "0001.blk")); string(got) != string(want) {
		t.Error("the clone lacks the hot data")
	}
}

func loamsTimeName(n string) bool {
	_, err := time.Parse("20060102T150405Z", n)
	return err == nil
}
