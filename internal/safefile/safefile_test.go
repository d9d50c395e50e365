package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteReplacesAtomicallyWithMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.toml")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("got %q mode %v", b, fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left behind: %v", entries)
	}
	if got := Mode(p, 0o644); got != 0o600 {
		t.Fatalf("Mode = %v", got)
	}
	if got := Mode(filepath.Join(dir, "nope"), 0o640); got != 0o640 {
		t.Fatalf("Mode of missing = %v", got)
	}
}

func TestWriteIntoMissingDirFailsAndLeavesNothing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "no", "such", "f")
	if err := Write(p, []byte("x"), 0o600); err == nil {
		t.Fatal("want an error")
	}
}
