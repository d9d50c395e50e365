package commands

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/agents"
	"loams.dev/cli/internal/output"
)

type mcpUninstallOptions struct {
	agent, scope string
	dryRun       bool
	projectDir   string
}

func newMCPUninstallCmd(f *Factory) *cli.Command {
	opts := &mcpUninstallOptions{}
	return &cli.Command{
		Name:  "uninstall",
		Usage: "Remove the entries `loams mcp install` wrote for an agent",
		Description: describe("Removes exactly what $LOAMS_HOME/mcp-installs.json records. A config file that\n"+
			"nothing else changed since gets its original bytes back. A skill file written by\n"+
			"--with-skill is removed, unless you edited it since (then it is kept).",
			"loams mcp uninstall --agent codex", "loams mcp uninstall --agent claude-code --scope project --dry-run"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Required: true, Usage: strings.Join(agents.Names(), ", "), Destination: &opts.agent},
			&cli.StringFlag{Name: "scope", Usage: "only this scope (default: every scope installed)", Destination: &opts.scope},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the command or the diff, change nothing", Destination: &opts.dryRun},
			projectDirFlag(&opts.projectDir),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runMCPUninstall(ctx, f, opts)
		},
	}
}

func runMCPUninstall(ctx context.Context, f *Factory, opts *mcpUninstallOptions) error {
	env, err := f.agentsEnv(opts.projectDir)
	if err != nil {
		return err
	}
	results, err := agents.Uninstall(ctx, env, agents.UninstallRequest{Agent: opts.agent, Scope: opts.scope, DryRun: opts.dryRun})
	if err != nil {
		return err
	}
	if results == nil {
		results = []*agents.Result{}
	}
	doc := map[string]any{"agent": opts.agent, "removed": results, "dry_run": opts.dryRun}
	if len(results) == 0 {
		return f.Printer().Print(output.View{JSON: doc, Empty: "nothing recorded for " + opts.agent + " in mcp-installs.json: nothing to remove"})
	}
	if opts.dryRun {
		var raw strings.Builder
		for _, r := range results {
			raw.WriteString(dryRunText(r))
		}
		return f.Printer().Print(output.View{JSON: doc, Raw: raw.String()})
	}
	var rows, text [][]string
	for _, r := range results {
		f.notes(r.Notes)
		state, entries := "unchanged", r.Entries
		switch {
		case r.Skill != nil:
			state, entries = r.Skill.State, []string{"skill"}
		case r.Restored:
			state = "restored"
		case r.Changed:
			state = "removed"
		}
		rows = append(rows, []string{r.Agent, r.Scope, strings.Join(entries, ", "), r.Path, state})
		text = append(text, []string{r.Agent, r.Scope, strings.Join(entries, ","), r.Path, state})
	}
	return f.Printer().Print(output.View{JSON: doc, Header: []string{"agent", "scope", "entries", "config", "state"}, Rows: rows, TextRows: text})
}
