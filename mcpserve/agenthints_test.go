package mcpserve

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// askUserCommand is the one place a hint may hold a CLI command: what the
// agent asks the user to run.
var askUserCommand = regexp.MustCompile("ask the user to run `[^`]*`")

// cliSyntax is what an agent cannot act on: a flag, or a loams command it
// is told to run itself.
var cliSyntax = regexp.MustCompile("--[a-z]|`loams |\\bloams (stack|env|pkg|server|mcp|docs|login) ")

// checkAgentHint fails when hint neither names a tool to call nor asks the
// user, or speaks CLI outside a request to the user.
func checkAgentHint(t *testing.T, what, hint string) {
	t.Helper()
	named := strings.Contains(hint, "ask the user")
	for _, tool := range []string{"search_docs", "get_sdk_snippet", "loams_info", "stack_status", "stack_create", "stack_start", "env_export", "add_package"} {
		named = named || strings.Contains(hint, "call "+tool)
	}
	if !named {
		t.Errorf("%s: the hint names no tool to call and does not ask the user: %q", what, hint)
	}
	if m := cliSyntax.FindString(askUserCommand.ReplaceAllString(hint, "")); m != "" {
		t.Errorf("%s: the hint speaks CLI (%q) to an agent: %q", what, m, hint)
	}
}

type failingCall struct {
	tool string
	args map[string]any
	code string
}

// expect calls the tool and checks it fails with code and an agent's hint.
func (a *agent) expect(t *testing.T, seen map[string]bool, c failingCall) {
	t.Helper()
	out, isErr := a.call(c.tool, c.args)
	what := c.tool + " " + mustJSON(c.args)
	if !isErr || out["error"] != c.code {
		t.Errorf("%s: want %s, got %v", what, c.code, out)
		return
	}
	seen[c.code] = true
	hint, _ := out["hint"].(string)
	checkAgentHint(t, what, hint)
}

// Issue 22: every error code an MCP tool returns carries a hint an agent
// can act on. Each tool is driven into each failure it has that a test can
// cause for real (disk full, a server that never gets ready and a remote
// profile without a key are covered where they are made).
func TestEveryErrorHintFitsAnAgent(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	a := newAgent(t)
	p := a.project
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = p
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	must(t, os.WriteFile(filepath.Join(p, ".env.example"), []byte("A=1\n"), 0o644))
	git("add", ".env.example")
	must(t, os.WriteFile(filepath.Join(p, ".env.ro"), []byte("A=1\n"), 0o444))
	must(t, os.WriteFile(filepath.Join(p, ".env.twice"), []byte("# >>> loams (stack app) >>>\nA=1\n# >>> loams (stack app) >>>\n"), 0o644))
	must(t, os.Mkdir(filepath.Join(p, ".env.d"), 0o755))
	for _, c := range []failingCall{
		{"search_docs", map[string]any{}, "usage"},
		{"search_docs", map[string]any{"query": "x", "limit": 99}, "usage"},
		{"search_docs", map[string]any{"Query": "ports"}, "usage"},
		{"get_sdk_snippet", map[string]any{"engine": "qdrant", "language": "go", "task": "sql"}, "snippet_not_found"},
		{"get_sdk_snippet", map[string]any{"engine": "mongo", "language": "go"}, "usage"},
		{"stack_status", map[string]any{"name": "ghost"}, "stack_not_found"},
		{"stack_start", map[string]any{"name": "ghost"}, "stack_not_found"},
		{"env_export", map[string]any{"name": "ghost"}, "stack_not_found"},
		{"env_export", map[string]any{}, "stack_not_found"}, // no stack yet: the hint creates one
		{"stack_create", map[string]any{"name": "x", "storage": "s3://bucket"}, "usage"},
		{"stack_create", map[string]any{"name": "x", "storage": "dir:" + t.TempDir()}, "path_outside_project"},
		{"stack_create", map[string]any{"name": "x", "engines": []string{"mongo"}}, "usage"},
		{"stack_create", map[string]any{"name": "x", "Storage": "dir:data"}, "usage"},
		{"add_package", map[string]any{"package": "left-pad"}, "package_not_allowed"},
	} {
		a.expect(t, seen, c)
	}
	if out, isErr := a.call("stack_create", map[string]any{"name": "app", "start": false}); isErr {
		t.Fatalf("stack_create: %v", out)
	}
	for _, c := range []failingCall{
		{"stack_create", map[string]any{"name": "app"}, "stack_exists"},
		{"env_export", map[string]any{"name": "app", "path": "../outside.env"}, "path_outside_project"},
		{"env_export", map[string]any{"name": "app", "path": "notenv"}, "path_outside_project"},
		{"env_export", map[string]any{"name": "app", "path": ".envrc"}, "forbidden"},
		{"env_export", map[string]any{"name": "app", "path": ".env.ro"}, "forbidden"},
		{"env_export", map[string]any{"name": "app", "path": ".env.example"}, "file_tracked"},
		{"env_export", map[string]any{"name": "app", "merge_into": ".env.twice"}, "file_conflict"},
		{"env_export", map[string]any{"name": "app", "path": ".env", "merge_into": ".env"}, "usage"},
		{"env_export", map[string]any{"name": "app", "path": ".env.d"}, "usage"},
	} {
		a.expect(t, seen, c)
	}
	// A .env.loams written for app is not re-pointed at another stack.
	if out, isErr := a.call("env_export", map[string]any{"name": "app"}); isErr {
		t.Fatalf("env_export: %v", out)
	}
	if out, isErr := a.call("stack_create", map[string]any{"name": "other", "start": false}); isErr {
		t.Fatalf("stack_create other: %v", out)
	}
	a.expect(t, seen, failingCall{"env_export", map[string]any{"name": "other"}, "env_target_mismatch"})
	must(t, os.Remove(filepath.Join(a.home, "stacks", "app", "secrets", "api_key")))
	a.expect(t, seen, failingCall{"stack_start", map[string]any{"name": "app"}, "secret_missing"})
	a.expect(t, seen, failingCall{"env_export", map[string]any{"name": "app"}, "secret_missing"})

	// At most 8 stacks per LOAMS_HOME.
	full := newAgent(t)
	for i := range 8 {
		if out, isErr := full.call("stack_create", map[string]any{"name": "s" + string(rune('a'+i)), "start": false}); isErr {
			t.Fatalf("stack_create %d: %v", i, out)
		}
	}
	full.expect(t, seen, failingCall{"stack_create", map[string]any{"name": "ninth", "start": false}, "too_many_stacks"})

	noServer := newAgent(t, "LOAMS_SERVER_BINARY="+filepath.Join(t.TempDir(), "missing"))
	noServer.expect(t, seen, failingCall{"stack_create", map[string]any{"name": "app"}, "server_binary_not_found"})

	noProject := newAgent(t, "CLAUDE_PROJECT_DIR="+filepath.Join(t.TempDir(), "gone"))
	noProject.expect(t, seen, failingCall{"add_package", map[string]any{"package": "sdk"}, "usage"})

	bare := t.TempDir()
	noManifest := newAgent(t, "CLAUDE_PROJECT_DIR="+bare)
	must(t, os.Remove(filepath.Join(noManifest.project, "package.json")))
	noManifest.expect(t, seen, failingCall{"add_package", map[string]any{"package": "sdk"}, "ecosystem_unsupported"})

	two := t.TempDir()
	must(t, os.WriteFile(filepath.Join(two, "package.json"), []byte(`{"name":"a"}`), 0o644))
	must(t, os.WriteFile(filepath.Join(two, "pyproject.toml"), []byte("[project]\nname = \"a\"\n"), 0o644))
	newAgent(t, "CLAUDE_PROJECT_DIR="+two).expect(t, seen, failingCall{"add_package", map[string]any{"package": "sdk", "dry_run": true}, "selection_required"})

	noNPM := newAgent(t, "PATH="+t.TempDir())
	noNPM.expect(t, seen, failingCall{"add_package", map[string]any{"package": "sdk"}, "ecosystem_unsupported"})

	readOnly := newAgentWith(t, []string{"--read-only"})
	for _, tool := range []string{"stack_create", "stack_start", "env_export", "add_package"} {
		readOnly.expect(t, seen, failingCall{tool, map[string]any{"name": "app", "package": "sdk"}, "tool_disabled"})
	}

	var codes []string
	for c := range seen {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	t.Logf("error codes driven through the tools: %s", strings.Join(codes, ", "))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
