package commands

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/agents"
	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/output"
)

type mcpInstallOptions struct {
	agent, scope, stack, projectDir string
	dryRun, allowTemp               bool
}

func newMCPInstallCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "Register `loams mcp serve` with a coding agent",
		Description: describe("Uses the agent's own CLI to add a new entry when it is installed (claude,\n"+
			"codex), else edits its config file, changing only the loams entries: comments,\n"+
			"other servers and the keys you added to ours (env, timeouts) stay. When the\n"+
			"stack has the mcp engine, its HTTP endpoint is registered too, as loams-<stack>.\n"+
			"Under --profile NAME (or LOAMS_PROFILE) or --endpoint, the entry runs\n"+
			"`loams mcp serve` with the same flag, so the agent sees that deployment.\n"+
			"Agents and their scopes (the first is the default):\n"+agents.ScopeHelp(),
			"loams mcp install --agent claude-code", "loams mcp install --agent cursor --scope project --dry-run",
			"loams mcp install --agent gemini-cli",
			"loams --profile staging mcp install --agent codex",
			"loams mcp install --agent claude-code --scope project --project-dir ~/src/app"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Required: true, Usage: strings.Join(agents.Names(), ", ")},
			&cli.StringFlag{Name: "scope", Usage: "user, project or local (default: the agent's first scope, listed above)"},
			&cli.StringFlag{Name: "stack", Usage: "stack whose HTTP MCP endpoint to add (default: the profile's default_stack)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the command or the diff, change nothing"},
			&cli.BoolFlag{Name: "allow-temporary-binary", Usage: "register this loams even though it runs from a temporary or build-cache directory (go run)"},
			projectDirFlag(),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runMCPInstall(ctx, f, &mcpInstallOptions{agent: cmd.String("agent"), scope: cmd.String("scope"),
				stack: cmd.String("stack"), dryRun: cmd.Bool("dry-run"), allowTemp: cmd.Bool("allow-temporary-binary"),
				projectDir: cmd.String("project-dir")})
		},
	}
}

func runMCPInstall(ctx context.Context, f *Factory, opts *mcpInstallOptions) error {
	env, err := f.agentsEnv(opts.projectDir)
	if err != nil {
		return err
	}
	if _, _, err := agents.Lookup(opts.agent, opts.scope); err != nil {
		return err
	}
	stack, url, err := f.stackMCPEndpoint(opts.stack)
	if err != nil {
		return err
	}
	serveArgs, err := f.serveArgs()
	if err != nil {
		return err
	}
	res, err := agents.Install(ctx, env, agents.InstallRequest{Agent: opts.agent, Scope: opts.scope,
		Stack: stack, MCPURL: url, ServeArgs: serveArgs, DryRun: opts.dryRun, AllowTemporaryBinary: opts.allowTemp})
	if err != nil {
		return err
	}
	return f.Printer().Print(agentResultView(res, res))
}

// serveArgs are the global flags `mcp install` passes on to the agent's
// `loams mcp serve`: a profile other than the default (which must exist: an
// agent cannot answer a prompt about a typo) and an explicit --endpoint.
func (f *Factory) serveArgs() ([]string, error) {
	var args []string
	if f.Globals.ProfileExplicit && f.Globals.Profile != config.DefaultProfile {
		if _, err := f.Profile(); err != nil {
			return nil, err
		}
		args = append(args, "--profile", f.Globals.Profile)
	}
	if f.Globals.Endpoint != "" {
		// Checked as every command checks it (no user:password part, no
		// plain http off loopback) before it lands in an agent's config.
		t, err := endpoint.ParseTarget(f.Globals.Endpoint)
		if err != nil {
			return nil, err
		}
		args = append(args, "--endpoint", t.String())
	}
	return args, nil
}

// agentResultView renders one install/uninstall result; json is doc.
func agentResultView(res *agents.Result, doc any) output.View {
	if res.DryRun {
		return output.View{JSON: doc, Raw: dryRunText(res)}
	}
	state := "unchanged"
	if res.Changed {
		state = "changed"
	}
	if res.Restored {
		state = "restored to its original bytes"
	}
	rows := [][]string{{"agent", res.Agent}, {"scope", res.Scope}, {"via", via(res)}, {"config", res.Path + " (" + state + ")"},
		{"entries", strings.Join(res.Entries, ", ")}}
	text := [][]string{{"agent", res.Agent}, {"scope", res.Scope}, {"via", res.Via}, {"config", res.Path},
		{"state", strings.Fields(state)[0]}, {"entries", strings.Join(res.Entries, ",")}}
	if res.Backup != "" {
		rows = append(rows, []string{"backup", res.Backup})
		text = append(text, []string{"backup", res.Backup})
	}
	return output.View{JSON: doc, Rows: rows, TextRows: text}
}

func via(res *agents.Result) string {
	if res.Via == "cli" {
		return "the agent's CLI"
	}
	return "file edit"
}

func dryRunText(res *agents.Result) string {
	if !res.Changed {
		return "# " + res.Path + ": nothing to change\n"
	}
	var b strings.Builder
	for _, c := range res.Commands {
		b.WriteString(shellJoin(c) + "\n")
	}
	b.WriteString(res.Diff)
	return b.String()
}

// projectDirFlag is --project-dir for the verbs whose project scopes need
// one when they do not run inside the project.
func projectDirFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "project-dir", Usage: "project directory of the project scopes (default: the nearest project root)"}
}
