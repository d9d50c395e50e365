package mcpserve_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loams.dev/cli/internal/testbin"
)

// answers splits stdout lines into messages (a batch line holds several).
func answers(t *testing.T, lines []string) []rpc {
	t.Helper()
	var out []rpc
	for _, l := range lines {
		var msgs []rpc
		if strings.HasPrefix(l, "[") {
			if err := json.Unmarshal([]byte(l), &msgs); err != nil {
				t.Fatalf("not a batch: %v\n%s", err, l)
			}
		} else {
			var m rpc
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("not JSON: %v\n%.300s", err, l)
			}
			msgs = []rpc{m}
		}
		out = append(out, msgs...)
	}
	return out
}

// runLines pipes input into `loams mcp serve`, which must exit 0 on EOF
// within 20 s, and returns its stdout lines and stderr.
func runLines(t *testing.T, input string, extraEnv ...string) ([]string, string) {
	t.Helper()
	env, _ := serveEnv(t, extraEnv...)
	p := startServe(t, env)
	if _, err := p.stdin.Write([]byte(input)); err != nil {
		t.Fatal(err)
	}
	out, code := p.wait(20 * time.Second)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, p.stderr.String())
	}
	return out, p.stderr.String()
}

var initLine = fmt.Sprintf(initLegacy, "2025-11-25")

// createStack makes a stopped stack with the stand-in server. Another
// test run on the machine (another worktree) may hold a block: then the
// next block is tried.
func createStack(t *testing.T, env []string, name string) {
	t.Helper()
	for try := 0; ; try++ {
		cmd := exec.Command(testbin.Loams(t), "stack", "create", "--name", name, "--no-start", "--port-base", fmt.Sprint(portBase()))
		cmd.Env = env
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
	cmd.Env = env
	_ = cmd.Run()
}
