package mcpserve

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/internal/testkit/testports"
)

// createStack makes a stopped stack with the stand-in server. Another
// test run on the machine (another worktree) may hold a block: then the
// next block is tried.
func createStack(t *testing.T, env []string, name string) {
	t.Helper()
	for try := 0; ; try++ {
		cmd := exec.Command(testbin.Loams(t), "stack", "create", "--name", name, "--no-start", "--port-base", fmt.Sprint(portBase(t)))
		// Run outside any project: stack create binds the project it runs
		// in, and this package's directory is inside the repository.
		cmd.Env, cmd.Dir = env, t.TempDir()
		out, err := cmd.CombinedOutput()
		if err == nil {
			break
		}
		if try == 10 || !strings.Contains(string(out), "in use") {
			t.Fatalf("stack create: %v\n%s", err, out)
		}
	}
	t.Cleanup(func() { stopStack(t, env, name) })
}

// portBase is a block of ports of the test's own, claimed from every test
// process of the run: the stacks of parallel tests live in separate homes,
// which do not see each other's ports.
func portBase(t testports.T) int { return testports.Block(t) }

func stopStack(t *testing.T, env []string, name string) {
	cmd := exec.Command(testbin.Loams(t), "stack", "stop", "--name", name, "--grace", "2s")
	cmd.Env, cmd.Dir = env, t.TempDir()
	_ = cmd.Run()
}
