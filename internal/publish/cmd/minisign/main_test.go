package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The signer goreleaser runs: a signature it writes verifies with the key
// pair keygen made, and stops verifying when the file changes.
func TestSignAndVerify(t *testing.T) {
	dir := t.TempDir()
	if err := run([]string{"keygen", dir}); err != nil {
		t.Fatal(err)
	}
	key, _ := os.ReadFile(filepath.Join(dir, "minisign.key"))
	t.Setenv("LOAMS_MINISIGN_KEY", string(key))
	file := filepath.Join(dir, "checksums.txt")
	if err := os.WriteFile(file, []byte("abc  loams_0.1.0_linux_amd64.tar.gz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"sign", file}); err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(dir, "minisign.pub")
	if err := run([]string{"verify", file, pub}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, []byte("abd  loams_0.1.0_linux_amd64.tar.gz\n"), 0o644)
	if err := run([]string{"verify", file, pub}); err == nil {
		t.Error("a changed file verified")
	}
	t.Setenv("LOAMS_MINISIGN_KEY", "")
	if err := run([]string{"sign", file}); err == nil {
		t.Error("signed without a key")
	}
}
