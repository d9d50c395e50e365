package commands

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/workspace"
	"loams.dev/cli/workspace/workspacetest"
)

// Both faces get the same situations and must name the same target and
// source (project.md: one rule). The CLI runs `stack describe` in process;
// the MCP face is `loams mcp serve` started as an agent starts it, asked
// with stack_status (and stack_start for the rows that must fail).
func TestBothFacesPickTheSameTarget(t *testing.T) {
	for _, sc := range workspacetest.Situations() {
		t.Run(sc.Name, func(t *testing.T) {
			env, dir, pdir := sc.Layout(t)
			env["LOAMS_SECRETS"], env["CI"] = "file", "true"
			cli := cliTarget(t, env, dir, pdir, sc)
			agent := mcpTarget(t, env, dir, pdir, sc)
			want := "error " + string(sc.Code)
			if sc.Code == "" {
				want = sc.Stack + " from " + string(sc.Source)
				if sc.Unbound {
					want += " (unbound)"
				}
			}
			if cli != want || agent != want {
				t.Fatalf("CLI: %s; MCP: %s; want %s", cli, agent, want)
			}
		})
	}
}

func cliTarget(t *testing.T, env map[string]string, dir, pdir string, sc workspacetest.Situation) string {
	ios, _, out, errOut := iostreams.Test()
	f := &Factory{IO: ios, Getenv: func(k string) string { return env[k] }, Now: time.Now, Dir: dir}
	f.useProjectDir(pdir) // what --project-dir does for the verbs that take it
	argv := []string{"loams", "-o", "json"}
	if sc.Flag != "" {
		argv = append(argv, "--stack", sc.Flag)
	}
	argv = append(argv, "stack", "describe")
	if sc.Arg != "" {
		argv = append(argv, sc.Arg)
	}
	if code := Run(context.Background(), f, argv, nil); code != 0 {
		var e struct{ Error struct{ Code string } }
		json.Unmarshal(errOut.Bytes(), &e)
		return "error " + e.Error.Code
	}
	var got struct{ Target workspace.Target }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("describe: %v\n%s", err, out)
	}
	return got.Target.Stack + " from " + string(got.Target.Source) + unbound(got.Target)
}

// unbound marks a target read in a project with no binding.
func unbound(t workspace.Target) string {
	if t.Unbound {
		return " (unbound)"
	}
	return ""
}

func mcpTarget(t *testing.T, env map[string]string, dir, pdir string, sc workspacetest.Situation) string {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for k, v := range sc.Env {
		env[k] = v
	}
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	environ = append(environ, "PATH="+filepath.Join(env["HOME"], "nobin"), "LOAMS_SERVER_BINARY=")
	argv := []string{testbin.Loams(t), "mcp", "serve"}
	if sc.Flag != "" {
		argv = append(argv, "--stack", sc.Flag)
	}
	if pdir != "" {
		argv = append(argv, "--project-dir", pdir)
	}
	session, _ := mcpSession(t, ctx, environ, dir, argv...)
	defer session.Close()
	args := map[string]any{}
	if sc.Arg != "" {
		args["name"] = sc.Arg
	}
	tool := "stack_status"
	if sc.Code != "" {
		tool = "stack_start" // the rule's errors surface where a stack is needed
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if res.IsError {
		var e struct{ Error string }
		json.Unmarshal(raw, &e)
		return "error " + e.Error
	}
	var got struct{ Target *workspace.Target }
	json.Unmarshal(raw, &got)
	if got.Target == nil {
		return "no target: " + string(raw)
	}
	return got.Target.Stack + " from " + string(got.Target.Source) + unbound(*got.Target)
}
