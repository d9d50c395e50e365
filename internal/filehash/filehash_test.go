package filehash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSHA256(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("abc"), 0o600); err != nil {
		t.Fatal(err)
	}
	// FIPS 180-2's example for "abc".
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got, err := SHA256(path); err != nil || got != want {
		t.Fatalf("SHA256 = %q, %v; want %q", got, err, want)
	}
	if got, n, err := Reader(strings.NewReader("abc")); err != nil || got != want || n != 3 {
		t.Fatalf("Reader = %q, %d, %v; want %q, 3", got, n, err, want)
	}
	if _, err := SHA256(filepath.Join(t.TempDir(), "missing")); !os.IsNotExist(err) {
		t.Fatalf("SHA256 of a missing file = %v, want not-exist", err)
	}
}
