//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"testing"

	"loams.dev/cli/internal/errs"
)

// CheckInHome walks from LOAMS_HOME to the file: each step is refused when
// others may write it, a file outside LOAMS_HOME is not its business, and
// what is missing is skipped.
func TestCheckInHomeWalksTheWholeWay(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "servers", "0.2.0", "standard", "loams")
	os.MkdirAll(filepath.Dir(file), 0o700)
	os.WriteFile(file, nil, 0o755)
	if err := CheckInHome(home, file, "x"); err != nil {
		t.Fatalf("private chain: %v", err)
	}
	for _, p := range []string{home, filepath.Join(home, "servers"), filepath.Join(home, "servers", "0.2.0", "standard"), file} {
		fi, _ := os.Stat(p)
		os.Chmod(p, fi.Mode().Perm()|0o020)
		if err := CheckInHome(home, file, "x"); !errs.Is(err, errs.UnsafePermissions) {
			t.Errorf("%s group-writable: %v", p, err)
		}
		os.Chmod(p, fi.Mode().Perm())
	}
	outside := filepath.Join(t.TempDir(), "loams")
	os.WriteFile(outside, nil, 0o777)
	if err := CheckInHome(home, outside, "x"); err != nil {
		t.Errorf("a file outside LOAMS_HOME: %v", err)
	}
	if err := CheckInHome(home, filepath.Join(home, "update", "previous.json"), "x"); err != nil {
		t.Errorf("a missing file: %v", err)
	}
}
