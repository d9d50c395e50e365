package commands

import (
	"context"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/testkit/testbin"
)

// mcpSession starts argv (a `loams mcp serve` command line; the test build
// of loams when empty) in dir with env, as an agent would, and connects
// go-sdk's client to it. stderr collects what the server wrote there.
func mcpSession(t *testing.T, ctx context.Context, env []string, dir string, argv ...string) (_ *mcp.ClientSession, stderr *testbin.Buffer) {
	t.Helper()
	if len(argv) == 0 {
		argv = []string{testbin.Loams(t), "mcp", "serve"}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	stderr = &testbin.Buffer{}
	cmd.Stderr = stderr
	session, err := mcp.NewClient(&mcp.Implementation{Name: t.Name(), Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return session, stderr
}
