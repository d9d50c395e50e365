package safefile

import (
	"errors"
	"io/fs"
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

// A user's symlink survives a write: the file it points to gets the bytes.
func TestWriteThroughASymlinkKeepsTheLink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "mcp.json")
	if err := os.Symlink(filepath.Join("dotfiles", "mcp.json"), link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Fatalf("target holds %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(real))
	if len(entries) != 1 {
		t.Fatalf("temp files left behind: %v", entries)
	}
}

// Root ignores mode bits, so the check is ours: 0444 and 0400 files are
// refused with an error that callers map to `forbidden`, and stay as they were.
func TestWriteRefusesAReadOnlyFile(t *testing.T) {
	for _, mode := range []os.FileMode{0o444, 0o400, 0o500} {
		p := filepath.Join(t.TempDir(), ".env")
		if err := os.WriteFile(p, []byte("mine"), mode); err != nil {
			t.Fatal(err)
		}
		err := Write(p, []byte("theirs"), 0o600)
		if !errors.Is(err, ErrReadOnly) || !errors.Is(err, fs.ErrPermission) {
			t.Fatalf("mode %v: err = %v, want ErrReadOnly (a permission error)", mode, err)
		}
		b, _ := os.ReadFile(p)
		fi, _ := os.Stat(p)
		if string(b) != "mine" || fi.Mode().Perm() != mode {
			t.Fatalf("mode %v: file changed to %q %v", mode, b, fi.Mode().Perm())
		}
	}
}

func TestWriteRefusesADirectoryAndADanglingLink(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, ".gitignore")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Write(sub, []byte("x"), 0o644); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("directory: err = %v", err)
	}
	link := filepath.Join(dir, "l")
	if err := os.Symlink(filepath.Join(dir, "missing"), link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("x"), 0o644); !errors.Is(err, ErrDanglingLink) {
		t.Fatalf("dangling link: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("the dangling link's target was created")
	}
}

// A link that leaves the root is neither read nor written through; one that
// stays inside is written through.
func TestWriteInsideRefusesLinksThatLeave(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "gitignore")
	if err := os.WriteFile(outside, []byte("secret outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	link := filepath.Join(root, ".gitignore")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	err := WriteInside(root, link, []byte("x"), 0o644)
	var oe *OutsideError
	if !errors.As(err, &oe) || !errors.Is(err, ErrOutside) {
		t.Fatalf("err = %v, want an OutsideError", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "secret outside\n" {
		t.Fatalf("outside file changed: %q", b)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}

	inner := filepath.Join(root, "shared", "ignore")
	os.MkdirAll(filepath.Dir(inner), 0o700)
	os.WriteFile(inner, []byte("a\n"), 0o644)
	link2 := filepath.Join(root, "sub", ".gitignore")
	os.MkdirAll(filepath.Dir(link2), 0o700)
	if err := os.Symlink("../shared/ignore", link2); err != nil {
		t.Fatal(err)
	}
	if err := WriteInside(root, link2, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(inner); string(b) != "a\nb\n" {
		t.Fatalf("inner target holds %q", b)
	}
	if _, err := ResolveInside(root, filepath.Join(root, "..", "x")); !errors.Is(err, ErrOutside) {
		t.Fatalf("a .. escape: err = %v", err)
	}
}
