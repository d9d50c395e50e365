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

	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/testkit/testbin"
)

// The journey of the project issue: a Node app and a Python app on one
// machine, each bound to its own stack, worked on from the CLI and from an
// agent, from their roots and from subdirectories. Neither ever touches the
// other's stack or .env.loams.
func TestTwoProjectsNeverTouchEachOther(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(root, "home")
	env := cliEnv(t, "HOME="+home)
	node, py := filepath.Join(home, "src", "nodeapp"), filepath.Join(home, "src", "pyapp")
	for dir, marker := range map[string]string{node: "package.json", py: "requirements.txt"} {
		os.MkdirAll(filepath.Join(dir, "src", "deep"), 0o755)
		os.WriteFile(filepath.Join(dir, marker), []byte("{}\n"), 0o644)
	}
	must := func(dir string, args ...string) string {
		t.Helper()
		out, errOut, code := loamsIn(t, env, dir, args...)
		if code != 0 {
			t.Fatalf("%v in %s: exit %d\n%s%s", args, dir, code, out, errOut)
		}
		return out + errOut
	}
	// Each project's first stack binds it; the first also becomes the default.
	if out := must(node, "stack", "create", "nodeapp", "--no-start"); !strings.Contains(out, "bound this project to stack nodeapp") {
		t.Fatalf("create did not say it bound the project:\n%s", out)
	}
	must(py, "stack", "create", "pyapp", "--no-start")
	for dir, want := range map[string]string{node: "nodeapp", py: "pyapp"} {
		b, _ := os.ReadFile(filepath.Join(dir, "loams.toml"))
		if !strings.Contains(string(b), `stack = "`+want+`"`) {
			t.Fatalf("%s/loams.toml = %q", dir, b)
		}
	}

	// From a subdirectory of the Python app, without a name: pyapp, and why.
	out, errOut, _ := loamsIn(t, env, filepath.Join(py, "src", "deep"), "stack", "describe")
	if !strings.Contains(out, "pyapp") || !strings.Contains(errOut, "stack pyapp (from "+filepath.Join(py, "loams.toml")+")") {
		t.Fatalf("describe in pyapp/src/deep:\n%s\n%s", out, errOut)
	}
	must(node, "env", "export", "--write", ".env.loams")
	must(filepath.Join(py, "src"), "env", "export", "--write", ".env.loams", "--project-dir", py)
	for dir, want := range map[string]string{node: "stack nodeapp", py: "stack pyapp"} {
		if got := envfile.FileTarget(filepath.Join(dir, ".env.loams")); got != want {
			t.Fatalf("%s/.env.loams written for %q", dir, got)
		}
	}
	nodeEnv, _ := os.ReadFile(filepath.Join(node, ".env.loams"))

	// LOAMS_STACK from another shell must not re-point the Node app's file.
	_, errOut, code := loamsIn(t, append(env, "LOAMS_STACK=pyapp"), node, "-o", "json", "env", "export", "--write", ".env.loams")
	if code != 5 || !strings.Contains(errOut, `"env_target_mismatch"`) {
		t.Fatalf("re-pointing from the CLI: exit %d %s", code, errOut)
	}

	// The agent in the Node app, asked for env_export with no name, writes
	// nodeapp's settings; one started with --stack pyapp is refused.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	call := func(dir string, args map[string]any, argv ...string) (map[string]any, bool) {
		t.Helper()
		s, _ := mcpSession(t, ctx, env, dir, argv...)
		defer s.Close()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "env_export", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(res.StructuredContent)
		var m map[string]any
		json.Unmarshal(raw, &m)
		return m, res.IsError
	}
	res, isErr := call(filepath.Join(node, "src"), map[string]any{})
	if isErr || res["target"].(map[string]any)["stack"] != "nodeapp" {
		t.Fatalf("env_export in nodeapp/src: %v", res)
	}
	res, isErr = call(node, map[string]any{}, testbin.Loams(t), "mcp", "serve", "--stack", "pyapp")
	if !isErr || res["error"] != "env_target_mismatch" || !strings.Contains(res["hint"].(string), `"force": true`) {
		t.Fatalf("env_export re-pointing nodeapp: %v", res)
	}
	if after, _ := os.ReadFile(filepath.Join(node, ".env.loams")); envfile.FileTarget(filepath.Join(node, ".env.loams")) != "stack nodeapp" ||
		!strings.Contains(string(after), "LOAMS_STACK=nodeapp") || len(after) != len(nodeEnv) {
		t.Fatalf("the Node app's .env.loams changed:\n%s", after)
	}
	// An agent's stack_create binds an unbound project, as loams stack
	// create does, and keeps a binding that exists.
	third := filepath.Join(home, "src", "third")
	os.MkdirAll(third, 0o755)
	os.WriteFile(filepath.Join(third, "go.mod"), []byte("module third\n"), 0o644)
	for dir, name := range map[string]string{third: "third", py: "extra"} {
		s, _ := mcpSession(t, ctx, env, dir)
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "stack_create", Arguments: map[string]any{"name": name, "start": false}})
		s.Close()
		if err != nil || res.IsError {
			t.Fatalf("stack_create %s: %v %+v", name, err, res)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(third, "loams.toml")); !strings.Contains(string(b), `stack = "third"`) {
		t.Fatalf("stack_create did not bind the unbound project: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(py, "loams.toml")); !strings.Contains(string(b), `stack = "pyapp"`) {
		t.Fatalf("pyapp's binding changed: %s", b)
	}
}
