package treecopy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"loams.dev/cli/internal/errs"
)

// mountTmpfs mounts a small tmpfs for the test, or skips (not root, no
// mount in this sandbox).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir
}

// A copy that would not fit is refused before the first byte, naming
// both numbers; the disk is left as it was.
func TestDiskFullBeforeCopying(t *testing.T) {
	small := mountTmpfs(t, "1m")
	src := t.TempDir()
	makeTree(t, src) // 3 MiB
	st, err := Measure(src)
	if err != nil {
		t.Fatal(err)
	}
	err = CheckSpace(small, st.Need(small))
	if e := errs.As(err); e == nil || e.Code != errs.DiskFull || e.Details["bytes_needed"].(int64) < 3<<20 {
		t.Fatalf("got %v", err)
	}
	if entries, _ := os.ReadDir(small); len(entries) != 0 {
		t.Errorf("the check wrote %v", entries)
	}
}

// Where the file system clones (XFS with reflink, btrfs), Copy clones
// and Need is nothing. LOAMS_TEST_REFLINK_DIR names a directory on one
// (bench/snapshot/run mounts an XFS image for itself).
func TestCloneWhereTheFileSystemClones(t *testing.T) {
	dir := os.Getenv("LOAMS_TEST_REFLINK_DIR")
	if dir == "" {
		t.Skip("set LOAMS_TEST_REFLINK_DIR to a directory on XFS (reflink=1) or btrfs")
	}
	root, err := os.MkdirTemp(dir, "treecopy-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	src := filepath.Join(root, "src")
	makeTree(t, src)
	st, _ := Measure(src)
	if n := st.Need(root); n != 0 {
		t.Errorf("Need on a cloning file system = %d", n)
	}
	m, err := Copy(context.Background(), src, filepath.Join(root, "dst"))
	if err != nil || m != Clone {
		t.Fatalf("Copy = %s, %v; want clone", m, err)
	}
	a, _ := Manifest(src)
	b, _ := Manifest(filepath.Join(root, "dst"))
	if _, s1 := Encode(a); s1 != func() string { _, s := Encode(b); return s }() {
		t.Error("clone differs from its source")
	}
}
