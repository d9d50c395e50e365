package commands

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/agents"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/mcptools"
)

type mcpInstallOptions struct {
	agent, scope, stack, projectDir string
	dryRun, allowTemp               bool
	absolutePath, withSkill         bool
	// readOnly and tools set the entry's access mode (mcp.md, "Access modes").
	readOnly bool
	tools    string
}

func newMCPInstallCmd(f *Factory) *cli.Command {
	opts := &mcpInstallOptions{}
	return &cli.Command{
		Name:  "install",
		Usage: "Register `loams mcp serve` with a coding agent",
		Description: describe("Uses the agent's own CLI to add a new entry when it is installed (claude,\n"+
			"codex), else edits its config file, changing only the loams entries: comments,\n"+
			"other servers and the keys you added to ours (env, timeouts) stay. When the\n"+
			"stack has the mcp engine, its HTTP endpoint is registered too, as loams-<stack>.\n"+
			"Under --profile NAME (or LOAMS_PROFILE) or --endpoint, the entry runs\n"+
			"`loams mcp serve` with the same flag, so the agent sees that deployment.\n"+
			"A project file (committed, shared) names `loams`, found on each teammate's PATH;\n"+
			"a user file names this binary's absolute path (GUI agents do not read the\n"+
			"shell's PATH); --absolute-path writes the absolute path everywhere.\n"+
			"--read-only or --tools NAME,... limit the tools the agent gets (the entry runs\n"+
			"`mcp serve --read-only`); tools: "+strings.Join(mcptools.Names, ", ")+".\n"+
			"--with-skill also writes a skill file (SKILL.md: when to call which tool) where\n"+
			"the agent reads one (Claude Code, Codex, Copilot CLI, Gemini CLI, Qwen Code, opencode); uninstall removes it\n"+
			"unless you edited it.\n"+
			"Agents and their scopes (the first is the default):\n"+agents.ScopeHelp(),
			"loams mcp install --agent claude-code", "loams mcp install --agent cursor --scope project --dry-run",
			"loams mcp install --agent gemini-cli",
			"loams --profile staging mcp install --agent codex",
			"loams mcp install --agent claude-code --scope project --project-dir ~/src/app",
			"loams mcp install --agent cursor --read-only",
			"loams mcp install --agent claude-code --tools search_docs,get_sdk_snippet,env_export --with-skill"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Required: true, Usage: strings.Join(agents.Names(), ", "), Destination: &opts.agent},
			&cli.StringFlag{Name: "scope", Usage: "user, project or local (default: the agent's first scope, listed above)", Destination: &opts.scope},
			&cli.StringFlag{Name: "stack", Usage: "stack whose HTTP MCP endpoint to add (default: the profile's default_stack)", Destination: &opts.stack},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the command or the diff, change nothing", Destination: &opts.dryRun},
			&cli.BoolFlag{Name: "allow-temporary-binary", Usage: "register this loams even though it is a go run/go test build in the Go build cache", Destination: &opts.allowTemp},
			&cli.BoolFlag{Name: "absolute-path", Usage: "write this binary's absolute path, also in a project file (default there: `loams` from PATH)", Destination: &opts.absolutePath},
			&cli.BoolFlag{Name: "read-only", Usage: "give the agent only the tools that change nothing (" + strings.Join(mcptools.ReadOnly, ", ") + ")", Destination: &opts.readOnly},
			&cli.StringFlag{Name: "tools", Usage: "give the agent only these tools, comma-separated", Destination: &opts.tools},
			&cli.BoolFlag{Name: "with-skill", Usage: "also write a skill file for agents that read one", Destination: &opts.withSkill},
			projectDirFlag(&opts.projectDir),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runMCPInstall(ctx, f, opts)
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
	modeArgs, enabled, err := opts.mode()
	if err != nil {
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
	req := agents.InstallRequest{Agent: opts.agent, Scope: opts.scope, Stack: stack, MCPURL: url,
		ServeArgs: append(serveArgs, modeArgs...), DryRun: opts.dryRun, AllowTemporaryBinary: opts.allowTemp,
		AbsolutePath: opts.absolutePath}
	if opts.withSkill {
		if req.Skill, err = f.skillFile(enabled); err != nil {
			return err
		}
	}
	res, err := agents.Install(ctx, env, req)
	if err != nil {
		return err
	}
	f.notes(res.Notes)
	return f.Printer().Print(agentResultView(res, res))
}

// mode is the entry's access mode: the arguments for `mcp serve` and the
// tools it enables (nil: all).
func (o *mcpInstallOptions) mode() (args, enabled []string, err error) {
	switch {
	case o.readOnly && o.tools != "":
		return nil, nil, errs.New(errs.Usage, "pass --read-only, or --tools with exactly the tools you want", "--read-only and --tools are exclusive")
	case o.readOnly:
		return []string{mcptools.FlagReadOnly}, mcptools.ReadOnly, nil
	case o.tools != "":
		tools, err := mcptools.Parse(o.tools)
		if err != nil {
			return nil, nil, err
		}
		return []string{mcptools.FlagTools, strings.Join(tools, ",")}, tools, nil
	}
	return nil, nil, nil
}

// skillFile renders SKILL.md as the server does for the entry's mode (the
// same text it serves as skill://loams/SKILL.md).
func (f *Factory) skillFile(enabled []string) ([]byte, error) {
	if enabled == nil {
		enabled = mcptools.Names
	}
	srv, closeFn, err := f.mcpServer(&mcpServeOptions{tools: strings.Join(enabled, ",")})
	if err != nil {
		return nil, err
	}
	defer closeFn()
	return srv.Skill(), nil
}
