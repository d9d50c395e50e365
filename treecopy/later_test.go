package treecopy

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// hashAllLater takes the deferred path for every file, as a cloning file
// system does, on whatever file system the test runs.
func hashAllLater(t *testing.T) {
	old := laterWhen
	laterWhen = func(Method) bool { return true }
	t.Cleanup(func() { laterWhen = old })
}

// Files hashed after the copy are hashed from the copy, not the source:
// a source written after the copy (the stack started again) does not
// change the manifest, which is the copy's. The cache learns the source's
// stat as the copy saw it, and a second copy reads nothing it knows.
func TestCopyHashedLaterHashesTheCopyAndFillsTheCache(t *testing.T) {
	hashAllLater(t)
	src := t.TempDir()
	makeTree(t, src)
	time.Sleep(racyMargin + 50*time.Millisecond) // the files are no longer racy
	cachePath := filepath.Join(t.TempDir(), "hashes.json")
	c := OpenHashCache(cachePath)
	dst := filepath.Join(t.TempDir(), "a")
	_, h, err := CopyHashedLater(context.Background(), src, dst, c)
	if err != nil {
		t.Fatal(err)
	}
	if h.Pending() != 4 {
		t.Fatalf("%d files left for later, want the 4 regular files", h.Pending())
	}
	want, _ := Manifest(src)
	// The "restarted stack" rewrites a file before the hashing is done.
	deep := filepath.Join(src, "a/b/c/deep.bin")
	f, _ := os.OpenFile(deep, os.O_RDWR, 0)
	b := []byte{0}
	_, _ = f.ReadAt(b, 10)
	_, _ = f.WriteAt([]byte{^b[0]}, 10)
	f.Close()
	got, err := h.Finish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	copied, _ := Manifest(dst)
	if _, a := Encode(got); a != func() string { _, b := Encode(want); return b }() || a != func() string { _, b := Encode(copied); return b }() {
		t.Fatalf("manifest after Finish:\n %+v\nsource before the write:\n %+v", got, want)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(cachePath)
	var m map[string]cached
	if err := json.Unmarshal(data, &m); err != nil || len(m) != 4 {
		t.Fatalf("cache: %v %d entries", err, len(m))
	}
	// Poison the unchanged file's entry: a repeat that uses the cache
	// reports the poison; the rewritten file is read again.
	same := filepath.Join(src, "segment-0001.log")
	e := m[same]
	e.SHA256 = "poisoned"
	m[same] = e
	data, _ = json.Marshal(m)
	_ = os.WriteFile(cachePath, data, 0o600)
	_, h2, err := CopyHashedLater(context.Background(), src, filepath.Join(t.TempDir(), "b"), OpenHashCache(cachePath))
	if err != nil {
		t.Fatal(err)
	}
	if h2.Pending() != 1 {
		t.Errorf("repeat left %d files for later, want only the rewritten one", h2.Pending())
	}
	got2, err := h2.Finish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	now, _ := Manifest(src)
	for i := range got2 {
		switch got2[i].Path {
		case "segment-0001.log":
			if got2[i].SHA256 != "poisoned" {
				t.Error("an unchanged file was hashed again: the cache was not used")
			}
		default:
			if got2[i] != now[i] {
				t.Errorf("%s: %+v, want %+v", got2[i].Path, got2[i], now[i])
			}
		}
	}
}

// A file whose bytes passed through (no clone) is hashed during the copy:
// nothing is left for later.
func TestCopyHashedLaterHashesCopiedBytesAtOnce(t *testing.T) {
	src := t.TempDir()
	makeTree(t, src)
	dst := filepath.Join(t.TempDir(), "a")
	m, h, err := CopyHashedLater(context.Background(), src, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m == Clone {
		t.Skip("this file system clones: every file is left for later")
	}
	if h.Pending() != 1 { // the empty file: "cloned", nothing to read
		t.Errorf("%d files left for later, want 1 (the empty one)", h.Pending())
	}
	got, err := h.Finish(context.Background())
	want, _ := Manifest(dst)
	if _, a := Encode(got); err != nil || a != func() string { _, b := Encode(want); return b }() {
		t.Errorf("manifest %v:\n %+v\nwant\n %+v", err, got, want)
	}
}
