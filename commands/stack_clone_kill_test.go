package commands

import (
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/treecopy/treecopytest"
)

// A clone killed (SIGKILL: nothing of loams runs after it) at any moment
// leaves no stack and no staging directory once the next command ran, and
// that command says what it cleared. Either nothing is there, or the
// whole clone is.
func TestCloneKilledMidCopyLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a few hundred MB")
	}
	t.Parallel()
	env := cliEnv(t)
	home := loamsHomeOf(env)
	if _, errOut, code := loams(t, env, "stack", "create", "big", "--port-base", portBase(t), "--no-start"); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	data := filepath.Join(home, "stacks", "big", "data")
	bigTree(t, data)
	source := treecopytest.Sums(t, filepath.Join(home, "stacks", "big"))
	stacks := filepath.Join(home, "stacks")

	for i, delay := range []time.Duration{0, 20 * time.Millisecond, 60 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond, 1200 * time.Millisecond, 3 * time.Second} {
		name := fmt.Sprintf("clone%d", i)
		cmd := exec.Command(testbin.Loams(t), "stack", "create", name, "--from", "big", "--no-start")
		cmd.Env, cmd.Dir = env, t.TempDir()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sawStaging := false
		if delay > 0 { // wait until the copy is under way, then a little more
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !sawStaging; time.Sleep(2 * time.Millisecond) {
				sawStaging = len(staging(t, stacks)) > 0
			}
			time.Sleep(delay)
		}
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		left := len(staging(t, stacks)) > 0

		out, errOut, code := loams(t, env, "stack", "list", "-o", "text")
		if code != 0 {
			t.Fatalf("list after kill at %v: %d %s", delay, code, errOut)
		}
		if rest := staging(t, stacks); len(rest) > 0 {
			t.Errorf("kill at %v: left after the next command: %v", delay, rest)
		}
		if left && !strings.Contains(errOut, "cleared an interrupted") {
			t.Errorf("kill at %v: the next command cleared a staging directory without saying so: %q", delay, errOut)
		}
		if strings.Contains(out, name+"\t") {
			// Killed after the rename and the key: the clone is whole.
			treecopytest.Equal(t, name, treecopytest.Sums(t, filepath.Join(stacks, name)), source)
		} else if _, err := os.Stat(filepath.Join(stacks, name)); err == nil {
			t.Errorf("kill at %v: %s is there but not a stack", delay, name)
		}
		t.Logf("kill at %v: staging seen %v, left %v, stack made %v", delay, sawStaging, left, strings.Contains(out, name+"\t"))
	}
	treecopytest.Equal(t, "source", treecopytest.Sums(t, filepath.Join(stacks, "big")), source)
}

// staging lists the staging directories and locks anywhere below stacks.
func staging(t *testing.T, stacks string) []string {
	var out []string
	_ = filepath.WalkDir(stacks, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".staging-") {
			out = append(out, p)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	return out
}

// bigTree is many small files and a few large ones: the copy takes long
// enough to be killed in the middle.
func bigTree(t *testing.T, root string) {
	t.Helper()
	small := make([]byte, 8<<10)
	for i := range 4000 {
		p := filepath.Join(root, "tables", fmt.Sprintf("t%02d", i%40), fmt.Sprintf("part-%05d.parquet", i))
		if i%40 == i {
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
		}
		small[0], small[1] = byte(i), byte(i>>8)
		if err := os.WriteFile(p, small, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	large := make([]byte, 48<<20)
	_, _ = rand.Read(large)
	for i := range 3 {
		large[0] = byte(i)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("blob-%d.bin", i)), large, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("blob-0.bin", filepath.Join(root, "latest")); err != nil {
		t.Fatal(err)
	}
}
