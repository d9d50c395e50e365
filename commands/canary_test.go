package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/secret"
)

// canary is a stack key in the real format; it must never be printed.
const canary = "loams_canary0000a1_CanaryCanaryCanaryCanaryCanary12"

// The canary test: plant a known key as a stack's secret, then call every
// MCP tool and every command (from the live tool list and command tree, so
// new ones are covered without editing this test) with valid and invalid
// input, and scan everything loams wrote for the key.
func TestCanaryNeverLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	root := t.TempDir()
	h := home.Home{Dir: filepath.Join(root, "loams-home")}
	project := filepath.Join(root, "project")
	bin := filepath.Join(root, "bin")
	for _, d := range []string{project, bin, filepath.Join(root, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_ = os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"app"}`), 0o644)
	_ = testbin.WriteExecutable(filepath.Join(bin, "npm"), []byte("#!/bin/sh\necho \"npm $*\"\n"))
	env := append(os.Environ(), "LOAMS_HOME="+h.Dir, "LOAMS_SECRETS=file", "HOME="+filepath.Join(root, "home"),
		"CI=true", "CLAUDE_PROJECT_DIR="+project, "PATH="+bin+":"+os.Getenv("PATH"),
		"LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testkit/testserver"))

	run := canaryRunner(t, env, project)
	var seen strings.Builder
	seen.WriteString(run("", "stack", "create", "--name", "dev", "--port-base", portBase(t), "--no-start"))
	if err := (secret.File{Home: h}).Set(context.Background(), "dev", secret.New(canary)); err != nil {
		t.Fatal(err)
	}
	seen.WriteString(run("", "stack", "start", "--name", "dev", "-o", "json"))
	defer run("", "stack", "stop", "--name", "dev", "--grace", "2s")

	// Every MCP tool, with no arguments, plausible ones and wrong types.
	calls, nTools := callEveryTool(t, env, project, &seen)

	// Every leaf command with --output json, without and with plausible flags.
	ios, _, _, _ := iostreams.Test()
	commands := 0
	for _, leaf := range leaves(NewRoot(&Factory{IO: ios, Getenv: func(string) string { return "" }}), nil) {
		path, c := leaf.path, leaf.cmd
		bare := path
		if c.SkipFlagParsing {
			// The pass-through (loams dev|standalone|cluster) runs the server:
			// bare, it would serve on its default ports until killed, so it
			// is asked for --help (its output is scanned all the same).
			bare = append(append([]string{}, path...), "--help")
		}
		seen.WriteString(run("", append([]string{"--output", "json"}, bare...)...))
		seen.WriteString(run("", append(append([]string{"--output", "json"}, path...), append(plausibleFlags(c), "dev")...)...))
		commands++
	}

	seen.WriteString(crashWithKey(t, env, project, h, canary))

	for _, log := range []string{h.MCPLog(), filepath.Join(h.Stack("dev"), "logs", "server.log")} {
		data, err := os.ReadFile(log)
		if err != nil {
			t.Errorf("%s: %v (the test must exercise it)", log, err)
		}
		seen.Write(data)
	}
	if strings.Contains(seen.String(), canary) || strings.Contains(seen.String(), canary[len(canary)-20:]) {
		i := strings.Index(seen.String(), canary[len(canary)-20:])
		t.Fatalf("the canary key leaked:\n…%s…", seen.String()[max(0, i-300):min(len(seen.String()), i+100)])
	}
	if calls < 3*nTools || commands < 20 {
		t.Fatalf("too little covered: %d tool calls over %d tools, %d commands", calls, nTools, commands)
	}
	t.Logf("scanned %d tool calls over %d tools and %d commands (x2), %d bytes", calls, nTools, commands, seen.Len())
}

// canaryRunner runs the test build of loams in dir with env, stdin given,
// and returns everything it printed (stdout and stderr), whatever it exits
// with: the canary scans output, not outcomes.
func canaryRunner(t *testing.T, env []string, dir string) func(stdin string, args ...string) string {
	return func(stdin string, args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, testbin.Loams(t), args...)
		cmd.Env, cmd.Dir, cmd.Stdin = env, dir, strings.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.WaitDelay = 2 * time.Second
		_ = cmd.Run()
		return out.String()
	}
}

// argumentSets derives calls from a tool's input schema: empty, every
// property with a plausible value, and every property with a wrong type.
func argumentSets(schema any) []map[string]any {
	data, _ := json.Marshal(schema)
	var s struct {
		Properties map[string]struct {
			Type    any   `json:"type"`
			Enum    []any `json:"enum"`
			Minimum *float64
			Items   *struct {
				Enum []any `json:"enum"`
			} `json:"items"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(data, &s)
	good, bad := map[string]any{}, map[string]any{}
	for name, p := range s.Properties {
		typ, _ := p.Type.(string)
		if typ == "" {
			typ = "array"
		}
		switch {
		case len(p.Enum) > 0:
			good[name] = p.Enum[0]
		case typ == "boolean":
			good[name] = true // dry_run: true, so nothing is installed for real
		case typ == "integer" || typ == "number":
			good[name] = 3
		case typ == "array":
			if p.Items != nil && len(p.Items.Enum) > 0 {
				good[name] = []any{p.Items.Enum[0]}
			} else {
				good[name] = []any{"x"}
			}
		case name == "path" || name == "merge_into":
			good[name] = ".env.loams"
		case name == "package":
			good[name] = "sdk"
		default:
			good[name] = "dev"
		}
		bad[name] = map[string]any{"wrong": 1}
	}
	return []map[string]any{{}, good, bad, {"unknown_argument": canary[:6]}}
}

type leaf struct {
	path []string
	cmd  *cli.Command
}

func leaves(c *cli.Command, path []string) []leaf {
	var out []leaf
	for _, sub := range c.Commands {
		if sub.Hidden || sub.Name == "help" {
			continue
		}
		p := append(append([]string{}, path...), sub.Name)
		if len(sub.Commands) == 0 {
			out = append(out, leaf{p, sub})
		} else {
			out = append(out, leaves(sub, p)...)
		}
	}
	return out
}

// plausibleFlags fills every string flag with a value a user might give.
func plausibleFlags(c *cli.Command) []string {
	values := map[string]string{"name": "dev", "stack": "dev", "engine": "qdrant", "language": "python", "agent": "cursor",
		"scope": "user", "task": "search", "format": "json", "lines": "5", "limit": "3", "engines": "qdrant", "grace": "2s",
		"wait-timeout": "10s", "project-dir": "."}
	var args []string
	for _, f := range c.Flags {
		n := f.Names()[0]
		if v, ok := values[n]; ok {
			args = append(args, "--"+n, v)
		}
	}
	return args
}

// callEveryTool runs `loams mcp serve` in dir and calls every tool it lists
// with each of argumentSets, writing every result, error and the server's
// stderr to seen; it returns how many calls got a result, and of how many tools.
func callEveryTool(t *testing.T, env []string, dir string, seen *strings.Builder) (calls, nTools int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	session, serveErr := mcpSession(t, ctx, env, dir)
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		for _, args := range argumentSets(tool.InputSchema) {
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: args})
			if err != nil {
				seen.WriteString(err.Error())
				continue
			}
			data, _ := json.Marshal(res)
			seen.Write(data)
			calls++
		}
	}
	session.Close()
	seen.WriteString(serveErr.String())
	return calls, len(tools.Tools)
}
