package commands

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/iostreams"
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

// The server project's CLI plan names the verb `self-update`: it is ours
// too (issue 28).
func TestSelfUpdateIsUpdate(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	f := &Factory{IO: ios, Getenv: func(k string) string { return map[string]string{"LOAMS_HOME": t.TempDir()}[k] }, Now: time.Now, Dir: t.TempDir()}
	if code := Run(context.Background(), f, []string{"loams", "self-update", "--help"}, nil); code != 0 ||
		!strings.Contains(out.String()+errOut.String(), "Replace this loams with the newest verified release") {
		t.Fatalf("self-update --help: exit %d\n%s%s", code, out, errOut)
	}
}
