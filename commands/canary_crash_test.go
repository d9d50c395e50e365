package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/secret"
)

// crashWithKey starts a stack whose server prints its key and crashes
// (issue 11, defect 6), through the CLI in json and table mode and
// through mcp serve, and returns everything loams wrote. It fails unless
// the server really printed the key and the log tail reached the output,
// so the redaction is exercised, not assumed.
func crashWithKey(t *testing.T, env []string, dir string, h home.Home, key string) string {
	t.Helper()
	env = append(env[:len(env):len(env)], "TESTSERVER_CRASH=boom", "TESTSERVER_PRINT_KEY=1")
	runWith := canaryRunner(t, env, dir)
	run := func(args ...string) string { return runWith("", args...) }
	var seen strings.Builder
	seen.WriteString(run("stack", "create", "--name", "crashy", "--port-base", portBase(t), "--no-start"))
	if err := (secret.File{Home: h}).Set(context.Background(), "crashy", secret.New(key)); err != nil {
		t.Fatal(err)
	}
	asJSON := run("stack", "start", "--name", "crashy", "-o", "json")
	seen.WriteString(asJSON)
	seen.WriteString(run("stack", "start", "--name", "crashy"))

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	session, serveErr := mcpSession(t, ctx, env, dir)
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "stack_start", Arguments: map[string]any{"name": "crashy"}})
	if err != nil {
		t.Fatal(err)
	}
	result, _ := json.Marshal(res)
	seen.Write(result)
	session.Close()
	seen.WriteString(serveErr.String())

	log, _ := os.ReadFile(filepath.Join(h.Stack("crashy"), "logs", "server.log"))
	if !strings.Contains(string(log), key) {
		t.Fatalf("the stand-in did not print the key; the test proves nothing:\n%s", log)
	}
	for name, out := range map[string]string{"stack start -o json": asJSON, "stack_start": string(result)} {
		if !strings.Contains(out, "api key <redacted>") && !strings.Contains(out, `api key \u003credacted\u003e`) {
			t.Errorf("%s: want the log tail with the key redacted, got:\n%.2000s", name, out)
		}
	}
	return seen.String()
}
