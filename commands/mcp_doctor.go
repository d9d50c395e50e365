package commands

import (
	"context"
	"strconv"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/agents"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/internal/shellquote"
)

type mcpDoctorOptions struct {
	projectDir string // where the project scopes are
}

func newMCPDoctorCmd(f *Factory) *cli.Command {
	opts := &mcpDoctorOptions{}
	return &cli.Command{
		Name:  "doctor",
		Usage: "Start every agent's loams MCP entry the way the agent does and report",
		Description: describe("Finds loams entries in the agents' config files and in mcp-installs.json,\n"+
			"runs each configured command, performs the MCP handshake and tools/list, and\n"+
			"says how to fix the ones that fail. Run it first when an agent says\n"+
			"\"MCP server failed\". An entry that names `loams` is looked up on the PATH\n"+
			"the agent gives its servers; the mode column shows each entry's tools\n"+
			"(all tools, read-only, or the --tools list).",
			"loams mcp doctor", "loams mcp doctor --output json"),
		Flags: []cli.Flag{projectDirFlag(&opts.projectDir)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runMCPDoctor(ctx, f, opts)
		},
	}
}

func runMCPDoctor(ctx context.Context, f *Factory, opts *mcpDoctorOptions) error {
	env, err := f.agentsEnv(opts.projectDir)
	if err != nil {
		return err
	}
	stop := f.IO.Progress("starting the agents' loams entries")
	checks, err := agents.Doctor(ctx, env)
	stop()
	if err != nil {
		return err
	}
	if checks == nil {
		checks = []agents.Check{}
	}
	header := []string{"agent", "scope", "entry", "status", "mode", "protocol", "tools", "handshake", "command"}
	failed := false // a problem column when anything failed or warns
	for _, c := range checks {
		failed = failed || !c.Connected || c.Warning != ""
	}
	if failed {
		header = append(header, "problem", "fix")
	}
	var rows, text [][]string
	for _, c := range checks {
		status, target := "connected", c.URL
		if !c.Connected {
			status = "failed"
		}
		if target == "" {
			target = shellquote.Join(c.Command)
		}
		mode := c.Mode
		if mode == "" {
			mode = "-" // an HTTP entry: the stack's own endpoint
		}
		row := []string{c.Agent, c.Scope, c.Name, status, mode, c.ProtocolVersion, strconv.Itoa(c.Tools), strconv.FormatInt(c.HandshakeMS, 10) + " ms", target}
		if failed {
			problem := c.Error
			if problem == "" {
				problem = c.Warning
			}
			row = append(row, problem, c.Fix)
		}
		rows = append(rows, row)
		// -o text: the handshake in integer milliseconds, like json's handshake_ms.
		tr := append([]string{}, row...)
		tr[7] = strconv.FormatInt(c.HandshakeMS, 10)
		text = append(text, tr)
	}
	return f.Printer().Print(output.View{JSON: map[string]any{"agents": checks}, Header: header, Rows: rows, TextRows: text,
		Empty: "no agent has a loams MCP entry; run `loams mcp install --agent claude-code` (or another agent: `loams mcp install --help` lists them)"})
}
