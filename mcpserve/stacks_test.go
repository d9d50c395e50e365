package mcpserve

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// createStack makes a stopped stack with the stand-in server. Another
// test run on the machine (another worktree) may hold a block: then the
// next block is tried.
func createStack(t *testing.T, env []string, name string) {
	t.Helper()
	for try := 0; ; try++ {
		cmd := exec.Command(testbin.Loams(t), "stack", "create", "--name", name, "--no-start", "--port-base", fmt.Sprint(portBase()))
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

// portBase spreads the stacks of parallel tests (in separate homes, which
// do not see each other's ports) over blocks from 30000 to 32600: below the
// kernel's ephemeral ports (32768+), above the stack package's test blocks
// (10000-19900) and the blocks loams picks itself (20000-29900).
func portBase() int {
	n := int(portBlocks.Add(1))
	return 30000 + (os.Getpid()*7+n)%27*100
}

var portBlocks atomic.Int32

func stopStack(t *testing.T, env []string, name string) {
	cmd := exec.Command(testbin.Loams(t), "stack", "stop", "--name", name, "--grace", "2s")
	cmd.Env, cmd.Dir = env, t.TempDir()
	_ = cmd.Run()
}
