package commands

import (
	"os"
	"testing"
)

// The repository holds no loams.toml (issue 28): one committed by a test
// made the README quick start in a clone create a stack called "slow".
// Tests run loams outside the repository; one that does not binds it, and
// this trips on the next run.
func TestRepositoryHoldsNoLoamsToml(t *testing.T) {
	if _, err := os.Lstat("../loams.toml"); err == nil {
		t.Fatal("../loams.toml exists: a test ran `loams stack create` (or init, stack_create) inside the repository")
	}
}
