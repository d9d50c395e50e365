package commands

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/testkit/testbin"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// gitProject makes dir a Node project named for its base name, with
// loams.toml holding toml when toml is not empty, committed to a git
// repository of its own. Without git the test is skipped.
func gitProject(t *testing.T, dir, toml string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"package.json": `{"name":"` + filepath.Base(dir) + `"}`}
	if toml != "" {
		files["loams.toml"] = toml
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "init")
}

// agentCallWith is one session calling one tool with args.
func agentCallWith(t *testing.T, env []string, dir, tool string, args map[string]any) map[string]any {
	t.Helper()
	return agentCalls(t, env, dir, []toolCall{{tool, args}})[0]
}

type toolCall struct {
	name string
	args map[string]any
}

// agentCall runs one MCP session of `loams mcp serve` started in dir (as
// an agent host starts it in a worktree) and calls the tools in order.
func agentCall(t *testing.T, env []string, dir string, names ...string) []map[string]any {
	t.Helper()
	var calls []toolCall
	for _, n := range names {
		calls = append(calls, toolCall{n, map[string]any{}})
	}
	return agentCalls(t, env, dir, calls)
}

func agentCalls(t *testing.T, env []string, dir string, calls []toolCall) []map[string]any {
	t.Helper()
	var outs []map[string]any
	for i, r := range agentResults(t, env, dir, calls) {
		if r.isError {
			t.Fatalf("%s in %s: %s", calls[i].name, dir, r.raw)
		}
		outs = append(outs, r.out)
	}
	return outs
}

// toolResult is one call's structuredContent, whether it was a tool error,
// and the raw JSON for messages.
type toolResult struct {
	out     map[string]any
	isError bool
	raw     string
}

// agentResults is agentCalls for a test that expects tool errors.
func agentResults(t *testing.T, env []string, dir string, calls []toolCall) []toolResult {
	t.Helper()
	cmd := exec.Command(testbin.Loams(t), "mcp", "serve")
	cmd.Env, cmd.Dir = append(env, "CLAUDE_PROJECT_DIR="+dir), dir
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	session, err := mcp.NewClient(&mcp.Implementation{Name: t.Name(), Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	var results []toolResult
	for _, c := range calls {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s in %s: %v", c.name, dir, err)
		}
		data, _ := json.Marshal(res.StructuredContent)
		r := toolResult{isError: res.IsError, raw: string(data)}
		_ = json.Unmarshal(data, &r.out)
		results = append(results, r)
	}
	return results
}

// [dev] worktrees = "clone": two git worktrees of one project, each with
// an agent calling env_export {} and stack_start {}, get a stack and a
// .env.loams each, copied from the main stack; removing a worktree and
// `stack prune --yes` frees its stack and nothing else.
func TestWorktreesGetTheirOwnStacks(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	repo := filepath.Join(base, "shop")
	gitProject(t, repo, "[dev]\nstack = \"shop\"\nworktrees = \"clone\"\n")
	env := cliEnv(t)
	home := loamsHomeOf(env)
	if _, errOut, code := loamsIn(t, env, repo, "stack", "create", "shop", "--port-base", portBase(t), "--no-start"); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	_ = os.MkdirAll(filepath.Join(home, "stacks", "shop", "data", "tables"), 0o700)
	_ = os.WriteFile(filepath.Join(home, "stacks", "shop", "data", "tables", "orders.parquet"), []byte("main data"), 0o600)
	// The main checkout keeps the main stack, and says nothing new.
	if out, errOut, code := loamsIn(t, env, repo, "stack", "describe", "-o", "json"); code != 0 || !strings.Contains(out, `"name": "shop"`) {
		t.Fatalf("main checkout: %d %s %s", code, out, errOut)
	}
	stacks := map[string]string{"feature-a": "shop-feature-a", "Review_B": "shop-review-b"}
	for wt, want := range stacks {
		dir := filepath.Join(base, wt)
		git(t, repo, "worktree", "add", "-q", dir)
		defer loams(t, env, "stack", "stop", want, "--grace", "2s")
		// Reading does not make it (a copy of a running main stack stops it).
		if _, errOut, code := loamsIn(t, env, dir, "stack", "describe", "-o", "json"); code != 4 || !strings.Contains(errOut, want) {
			t.Errorf("%s: describe before the stack exists: %d %s", wt, code, errOut)
		}
		// A script (no terminal) is told the command, and nothing is made.
		_, errOut, code := loamsIn(t, env, dir, "stack", "start", "-o", "json")
		if code != 3 || !strings.Contains(errOut, "loams stack create "+want+" --from shop") {
			t.Errorf("%s: stack start without a terminal: %d %s", wt, code, errOut)
		}
		if _, err := os.Stat(filepath.Join(home, "stacks", want)); err == nil {
			t.Errorf("%s: made without a yes", want)
		}
		t0 := time.Now()
		outs := agentCall(t, env, dir, "env_export", "stack_start")
		t.Logf("%s: agent %v", wt, time.Since(t0))
		for i, out := range outs {
			target, _ := out["target"].(map[string]any)
			if target["stack"] != want || target["source"] != "worktree" {
				t.Errorf("%s call %d: target %v, want %s from worktree", wt, i, target, want)
			}
		}
		if outs[1]["state"] != "running" {
			t.Errorf("%s: stack_start: %v", wt, outs[1])
		}
		env, err := os.ReadFile(filepath.Join(dir, ".env.loams"))
		if err != nil || !strings.Contains(string(env), "LOAMS_STACK="+want) {
			t.Errorf("%s/.env.loams: %v\n%s", wt, err, env)
		}
		copied, _ := os.ReadFile(filepath.Join(home, "stacks", want, "data", "tables", "orders.parquet"))
		spec, _ := os.ReadFile(filepath.Join(home, "stacks", want, "stack.toml"))
		if string(copied) != "main data" || !strings.Contains(string(spec), "project = \""+dir+"\"") {
			t.Errorf("%s: not a copy of the main stack recorded for its worktree: %q\n%s", want, copied, spec)
		}
	}
	// init --yes in a third worktree makes its stack as a copy, and leaves
	// the committed loams.toml alone.
	third := filepath.Join(base, "wt-c")
	git(t, repo, "worktree", "add", "-q", third)
	defer loams(t, env, "stack", "stop", "shop-wt-c", "--grace", "2s")
	if _, errOut, code := loamsIn(t, env, third, "init", "--yes", "--no-agent", "-o", "json"); code != 0 {
		t.Fatalf("init in a worktree: %d %s", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(third, "loams.toml")); string(b) != "[dev]\nstack = \"shop\"\nworktrees = \"clone\"\n" {
		t.Errorf("init rewrote the worktree's loams.toml:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(third, ".env.loams")); !strings.Contains(string(b), "LOAMS_STACK=shop-wt-c") {
		t.Errorf("init's .env.loams:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(home, "stacks", "shop-wt-c", "data", "tables", "orders.parquet")); string(b) != "main data" {
		t.Errorf("init's worktree stack is not a copy of the main stack: %q", b)
	}

	// stack_create of the worktree's own stack makes it as a copy too.
	fourth := filepath.Join(base, "wt-d")
	git(t, repo, "worktree", "add", "-q", fourth)
	outs := agentCallWith(t, env, fourth, "stack_create", map[string]any{"name": "shop-wt-d", "start": false})
	if b, _ := os.ReadFile(filepath.Join(home, "stacks", "shop-wt-d", "data", "tables", "orders.parquet")); string(b) != "main data" {
		t.Errorf("stack_create in a worktree did not copy the main stack: %v %q", outs, b)
	}
	if b, _ := os.ReadFile(filepath.Join(fourth, "loams.toml")); string(b) != "[dev]\nstack = \"shop\"\nworktrees = \"clone\"\n" {
		t.Errorf("stack_create rewrote the worktree's loams.toml:\n%s", b)
	}

	// The CLI in a worktree resolves the same stack.
	if out, _, code := loamsIn(t, env, filepath.Join(base, "feature-a"), "stack", "describe", "-o", "json"); code != 0 || !strings.Contains(out, `"name": "shop-feature-a"`) {
		t.Errorf("CLI in the worktree: %s", out)
	}

	git(t, repo, "worktree", "remove", "--force", filepath.Join(base, "feature-a"))
	out, _, code := loams(t, env, "stack", "prune", "--dry-run", "-o", "text")
	if code != 0 || strings.TrimSpace(out) != "shop-feature-a\t"+filepath.Join(base, "feature-a") {
		t.Fatalf("prune --dry-run: %d %q", code, out)
	}
	if _, errOut, code := loams(t, env, "stack", "prune"); code != 3 || !strings.Contains(errOut, "--yes") {
		t.Errorf("prune without --yes: %d %s", code, errOut)
	}
	if _, errOut, code := loams(t, env, "stack", "prune", "--yes"); code != 0 {
		t.Fatalf("prune: %d %s", code, errOut)
	}
	out, _, _ = loams(t, env, "stack", "list", "-o", "text")
	if strings.Contains(out, "shop-feature-a") || !strings.Contains(out, "shop-review-b") || !strings.Contains(out, "shop\t") {
		t.Errorf("after prune:\n%s", out)
	}
}

// A cloned repository's loams.toml naming another project's stack, with
// worktrees = "clone", must not copy that project's data into a stack of
// its own: the copy would hand the data (and a key to it) to the
// repository's scripts. The main checkout's own stack still clones.
func TestWorktreeDoesNotCloneAnotherProjectsStack(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	other := filepath.Join(base, "bank")
	gitProject(t, other, "")
	env := cliEnv(t)
	home := loamsHomeOf(env)
	if _, errOut, code := loamsIn(t, env, other, "stack", "create", "bank", "--port-base", portBase(t), "--no-start"); code != 0 {
		t.Fatalf("create bank: %d %s", code, errOut)
	}
	repo := filepath.Join(base, "cloned")
	gitProject(t, repo, "[dev]\nstack = \"bank\"\nworktrees = \"clone\"\n")
	wt := filepath.Join(base, "feature")
	git(t, repo, "worktree", "add", "-q", wt)
	_, errOut, code := loamsIn(t, env, wt, "init", "--yes", "--no-agent", "-o", "json")
	if code != 3 || !strings.Contains(errOut, "confirmation_required") || !strings.Contains(errOut, other) {
		t.Errorf("init --yes in the cloned repo's worktree: exit %d, want 3 confirmation_required naming %s: %s", code, other, errOut)
	}
	// The agent's face: stack_start {} creates a worktree's stack without
	// asking, so here it must refuse.
	r := agentResults(t, env, wt, []toolCall{{"stack_start", map[string]any{}}})[0]
	if !r.isError || !strings.Contains(r.raw, "confirmation_required") {
		t.Errorf("stack_start {} in the cloned repo's worktree: want confirmation_required, got %s", r.raw)
	}
	if _, err := os.Stat(filepath.Join(home, "stacks", "bank-feature")); err == nil {
		t.Error("bank's data was copied into the cloned repository's worktree stack")
	}
}
