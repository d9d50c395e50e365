package treecopy

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
)

// makeTree writes a tree with what a server's data holds: nested
// directories, empty, small and multi-megabyte files, odd modes, and
// symlinks (relative, absolute, dangling, to a directory, out of the tree).
func makeTree(t *testing.T, root string) {
	t.Helper()
	big := make([]byte, 3<<20+17)
	_, _ = rand.Read(big)
	files := map[string][]byte{
		"a/b/c/deep.bin":   big,
		"a/empty":          nil,
		"segment-0001.log": []byte("hello\n"),
		"ro.txt":           []byte("read only"),
	}
	for p, data := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(root, "ro.txt"), 0o400); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"rel-link": "a/b/c/deep.bin", "abs-link": "/etc/hostname", "dangling": "no/such/file",
		"dir-link": "a", "a/b/up": "../../segment-0001.log",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCopyRoundTripsEveryFileAndLink(t *testing.T) {
	src, dst := filepath.Join(t.TempDir(), "src"), filepath.Join(t.TempDir(), "dst")
	makeTree(t, src)
	if _, err := Copy(context.Background(), src, dst); err != nil {
		t.Fatal(err)
	}
	want, err := Manifest(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Manifest(dst)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 9 || !reflect.DeepEqual(got, want) {
		t.Fatalf("manifests differ:\n src %+v\n dst %+v", want, got)
	}
	// Links are links, not copies of what they point at.
	if fi, err := os.Lstat(filepath.Join(dst, "dir-link")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("dir-link is not a symlink in the copy: %v %v", fi, err)
	}
	if fi, _ := os.Stat(filepath.Join(dst, "ro.txt")); fi.Mode().Perm() != 0o400 {
		t.Errorf("mode of ro.txt: %v", fi.Mode())
	}
	si, _ := os.Stat(filepath.Join(src, "a/b/c/deep.bin"))
	di, _ := os.Stat(filepath.Join(dst, "a/b/c/deep.bin"))
	if !si.ModTime().Equal(di.ModTime()) {
		t.Errorf("mtime not kept: %v vs %v", si.ModTime(), di.ModTime())
	}
	_, sum1 := Encode(want)
	_, sum2 := Encode(got)
	if sum1 != sum2 || len(sum1) != 64 {
		t.Errorf("manifest sums %s %s", sum1, sum2)
	}
}

func TestCopyHashedListsWhatManifestLists(t *testing.T) {
	src, dst := filepath.Join(t.TempDir(), "src"), filepath.Join(t.TempDir(), "dst")
	makeTree(t, src)
	_, got, err := CopyHashed(context.Background(), src, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Manifest(dst)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("CopyHashed:\n %+v\nManifest:\n %+v", got, want)
	}
}

func TestManifestSeesAChangedByte(t *testing.T) {
	src := t.TempDir()
	makeTree(t, src)
	before, _ := Manifest(src)
	f, _ := os.OpenFile(filepath.Join(src, "a/b/c/deep.bin"), os.O_WRONLY, 0)
	_, _ = f.WriteAt([]byte{'x'}, 1<<20)
	f.Close()
	after, _ := Manifest(src)
	_, s1 := Encode(before)
	_, s2 := Encode(after)
	if s1 == s2 {
		t.Fatal("a changed byte left the manifest sum alone")
	}
}

func TestSpecialFilesAreRefused(t *testing.T) {
	src := t.TempDir()
	makeTree(t, src)
	if err := syscall.Mkfifo(filepath.Join(src, "a", "pipe"), 0o600); err != nil {
		t.Skip("no mkfifo here:", err)
	}
	if _, err := Measure(src); !errs.Is(err, errs.Usage) || !strings.Contains(err.Error(), "pipe is a named pipe;") {
		t.Fatalf("Measure: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "dst")
	done := make(chan error, 1)
	go func() { _, err := Copy(context.Background(), src, dst); done <- err }()
	select {
	case err := <-done: // never blocks opening the FIFO
		if !errs.Is(err, errs.Usage) {
			t.Fatalf("Copy: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Copy blocked on a FIFO")
	}
}

func TestMeasureAndMissingSource(t *testing.T) {
	src := t.TempDir()
	makeTree(t, src)
	st, err := Measure(src, filepath.Join(src, "nope"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 9 || st.Bytes != 3<<20+17+6+9 {
		t.Errorf("stats %+v", st)
	}
	dst := filepath.Join(t.TempDir(), "x")
	if _, err := Copy(context.Background(), filepath.Join(src, "nope"), dst); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dst); !os.IsNotExist(err) {
		t.Errorf("a missing source made %s", dst)
	}
}

func TestCheckSpaceNamesBothNumbers(t *testing.T) {
	dir := t.TempDir()
	if _, ok := freeBytes(dir); !ok {
		t.Skip("no statfs here")
	}
	if err := CheckSpace(dir, 1); err != nil {
		t.Fatal(err)
	}
	err := CheckSpace(dir, 1<<62)
	e := errs.As(err)
	if e == nil || e.Code != errs.DiskFull || e.Code.ExitCode() != 7 {
		t.Fatalf("got %v", err)
	}
	if e.Details["bytes_needed"] != int64(1<<62) || e.Details["bytes_free"].(int64) <= 0 {
		t.Errorf("details %v", e.Details)
	}
}

func TestCancelledCopyStops(t *testing.T) {
	src := t.TempDir()
	makeTree(t, src)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Copy(ctx, src, filepath.Join(t.TempDir(), "d")); err == nil {
		t.Fatal("a cancelled copy succeeded")
	}
}

func TestStagingCommitAndSweep(t *testing.T) {
	parent := t.TempDir()
	final := filepath.Join(parent, "snap1")
	st, err := Stage(final)
	if err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(st.Dir, "f"), []byte("x"), 0o600)
	// A live copy (its lock held) is never swept, however old its lock.
	old := time.Now().Add(-time.Hour)
	_ = os.Chtimes(st.Dir+".lock", old, old)
	if cleared, _ := Sweep(parent); len(cleared) != 0 {
		t.Fatalf("swept a live staging: %v", cleared)
	}
	if err := st.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(final, "f")); !bytes.Equal(b, []byte("x")) {
		t.Fatal("commit lost the file")
	}
	// A dead copy: the directory and a lock nobody holds.
	dead := filepath.Join(parent, stagingPrefix+"snap2-abcdef")
	_ = os.MkdirAll(filepath.Join(dead, "data"), 0o700)
	_ = os.WriteFile(dead+".lock", nil, 0o600)
	_ = os.Chtimes(dead+".lock", old, old)
	cleared, err := Sweep(parent)
	if err != nil || !reflect.DeepEqual(cleared, []string{"snap2"}) {
		t.Fatalf("Sweep = %v, %v", cleared, err)
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 || entries[0].Name() != "snap1" {
		t.Errorf("left: %v", entries)
	}
	// Commit refuses to land on an existing name.
	st2, _ := Stage(final)
	if err := st2.Commit(); err == nil {
		t.Error("commit replaced an existing directory")
	}
	st2.Abort()
	if _, err := os.Stat(st2.Dir); !os.IsNotExist(err) {
		t.Error("abort left the staging directory")
	}
}

// The hash cache skips files unchanged since they were hashed, and never
// serves a file that was written since.
func TestHashCacheReusesOnlyUnchangedFiles(t *testing.T) {
	src := t.TempDir()
	makeTree(t, src)
	time.Sleep(racyMargin + 50*time.Millisecond) // the files are no longer racy
	cachePath := filepath.Join(t.TempDir(), "hashes.json")
	c := OpenHashCache(cachePath)
	if _, _, err := CopyHashed(context.Background(), src, filepath.Join(t.TempDir(), "a"), c); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	// Poison two entries: one file stays as it is, the other is rewritten.
	data, _ := os.ReadFile(cachePath)
	var m map[string]cached
	if err := json.Unmarshal(data, &m); err != nil || len(m) != 4 {
		t.Fatalf("cache: %v %d entries", err, len(m))
	}
	same, changed := filepath.Join(src, "segment-0001.log"), filepath.Join(src, "a/b/c/deep.bin")
	for _, p := range []string{same, changed} {
		e := m[p]
		e.SHA256 = "poisoned"
		m[p] = e
	}
	data, _ = json.Marshal(m)
	_ = os.WriteFile(cachePath, data, 0o600)
	f, _ := os.OpenFile(changed, os.O_WRONLY, 0)
	_, _ = f.WriteAt([]byte{'x'}, 10) // same size, same mtime second: only ctime and content tell
	f.Close()

	_, got, err := CopyHashed(context.Background(), src, filepath.Join(t.TempDir(), "b"), OpenHashCache(cachePath))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Manifest(src)
	for i := range got {
		switch got[i].Path {
		case "segment-0001.log":
			if got[i].SHA256 != "poisoned" {
				t.Error("an unchanged file was hashed again: the cache was not used")
			}
		default:
			if got[i] != want[i] {
				t.Errorf("%s: %+v, want %+v", got[i].Path, got[i], want[i])
			}
		}
	}
}
