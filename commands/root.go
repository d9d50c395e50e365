// Package commands is the loams command tree: flag parsing, rendering and
// exit codes. The work itself lives in stack/, docsindex/, mcpserve/ and
// friends; a verb here only turns flags into a call and a result into output.
package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
)

// NewRoot builds the whole command tree around f.
func NewRoot(f *Factory) *cli.Command {
	root := &cli.Command{
		Name:  "loams",
		Usage: "Run a local Loams stack and connect your app and coding agents to it",
		Description: describe(
			"loams creates and supervises local Loams servers, writes their connection\n"+
				"settings to .env.loams, adds the SDK to your project and serves the Loams\n"+
				"docs and stack tools to coding agents over MCP.",
			"loams init", "loams stack create dev", "loams docs search \"qdrant port\""),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output format: table, json or text (env LOAMS_OUTPUT)"},
			&cli.StringFlag{Name: "profile", Usage: "configuration profile (env LOAMS_PROFILE)"},
			&cli.BoolFlag{Name: "no-input", Usage: "never prompt (env LOAMS_NO_INPUT)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only results and errors"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "say more on stderr"},
			&cli.StringFlag{Name: "color", Value: "auto", Usage: "colour in tables: auto, always or never"},
			&cli.StringFlag{Name: "endpoint", Usage: "Loams server to talk to: URL or local:STACK (env LOAMS_ENDPOINT)"},
			&cli.StringFlag{Name: "stack", Usage: "stack to use when a command names none; before LOAMS_STACK and loams.toml"},
		},
		Commands: []*cli.Command{
			newInitCmd(f),
			newConfigureCmd(f),
			newVersionCmd(f, nil),
			newEnvCmd(f),
			newPkgCmd(f),
			newMCPCmd(f),
			newStackCmd(f),
			newDocsCmd(f),
			newServerGroupCmd(f),
			newDoctorCmd(f),
			newStatusCmd(f),
			newLoginCmd(f),
			newLogoutCmd(f),
			newWhoAmICmd(f),
			newUpdateCmd(f),
			newServerCmd(f, "dev", "Run the Loams server's dev command (everything in one process)"),
			newServerCmd(f, "standalone", "Run the Loams server's standalone command (data in object storage)"),
			newServerCmd(f, "cluster", "Run the Loams server's cluster command"),
		},
		EnableShellCompletion:           true,
		ShellCompletionCommandName:      "completions",
		ConfigureShellCompletionCommand: func(c *cli.Command) { configureCompletions(f, c) },
		HideHelpCommand:                 true,
		HideVersion:                     true,
		Suggest:                         true,
		Reader:                          f.IO.In,
		Writer:                          f.IO.Out,
		ErrWriter:                       f.IO.ErrOut,
		// Run must only return errors: Main alone renders them and picks the exit code.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Before: func(ctx context.Context, cmd *cli.Command) (context.Context, error) {
			return ctx, resolveGlobals(f, cmd)
		},
		Action: groupAction,
	}
	prepareTree(root)
	return root
}

// resolveGlobals applies flag > environment > profile > default.
func resolveGlobals(f *Factory, cmd *cli.Command) error {
	g := &f.Globals
	g.Profile, g.ProfileExplicit = config.DefaultProfile, false
	if v := cmd.String("profile"); cmd.IsSet("profile") && v != "" {
		g.Profile, g.ProfileExplicit = v, true
	} else if v := f.Getenv("LOAMS_PROFILE"); v != "" {
		g.Profile, g.ProfileExplicit = v, true
	}
	g.NoInput = cmd.Bool("no-input")
	g.Quiet = cmd.Bool("quiet")
	g.Verbose = cmd.Bool("verbose")
	g.Endpoint = cmd.String("endpoint")
	g.Stack = cmd.String("stack")
	switch c := cmd.String("color"); c {
	case "auto", "always", "never":
		g.Color = c
	default:
		return errs.New(errs.Usage, "use --color auto, always or never", "unknown --color value %q", c)
	}
	format := ""
	if cmd.IsSet("output") {
		format = cmd.String("output")
	} else if v := f.Getenv("LOAMS_OUTPUT"); v != "" {
		format = v
	}
	g.OutputExplicit = format != ""
	if format == "" {
		// The active profile (a project's loams.toml may name it) may set
		// a default format; a broken config or loams.toml must not stop
		// `configure` from reporting it, so errors here fall through.
		name := g.Profile
		if n, _, err := f.profileName(); err == nil {
			name = n
		}
		if cfg, err := f.Config(); err == nil {
			if p, ok := cfg.Profile(name); ok {
				format = p.Output
			}
		}
	}
	if format == "" {
		format = string(output.Table)
	}
	fm, err := output.ParseFormat(format)
	if err != nil {
		return err
	}
	g.Output = fm
	return nil
}

// prepareTree gives every command the same usage-error handling, and every
// group an action that reports an unknown subcommand as a usage error.
func prepareTree(cmd *cli.Command) {
	cmd.OnUsageError = func(_ context.Context, c *cli.Command, err error, _ bool) error {
		return usageError(c, err)
	}
	if len(cmd.Commands) > 0 && cmd.Action == nil {
		cmd.Action = groupAction
	}
	for _, sub := range cmd.Commands {
		prepareTree(sub)
	}
}

func usageError(c *cli.Command, err error) error {
	msg := err.Error()
	hint := fmt.Sprintf("run `%s --help`", c.FullName())
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		msg = "unknown flag --" + name
		if s := suggestFlag(name, flagNames(c)); s != "" {
			hint = fmt.Sprintf("did you mean --%s? run `%s --help`", s, c.FullName())
		}
	}
	if name, ok := strings.CutPrefix(msg, "Required flag "); ok {
		name = strings.Trim(strings.TrimSuffix(name, " not set"), `"`)
		msg = fmt.Sprintf("%s needs --%s", c.FullName(), name)
		if c.ArgsUsage == "[NAME]" && name == "name" {
			msg = c.FullName() + " needs a stack name"
			hint = fmt.Sprintf("run `%s NAME` (or --name NAME); `loams stack list` shows the stacks", c.FullName())
		}
	}
	return errs.New(errs.Usage, hint, "%s", msg).Wrap(err)
}

// groupAction runs for a group called without a known subcommand.
func groupAction(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() == 0 {
		return cli.ShowSubcommandHelp(cmd)
	}
	name := cmd.Args().First()
	var names []string
	for _, c := range cmd.Commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	hint := fmt.Sprintf("%s commands: %s", cmd.FullName(), strings.Join(names, ", "))
	if s := suggest(name, names); s != "" {
		hint = fmt.Sprintf("did you mean `%s %s`? %s", cmd.FullName(), s, hint)
	}
	return errs.New(errs.Usage, hint, "unknown command %q for `%s`", name, cmd.FullName()).With("command", name)
}

func flagNames(c *cli.Command) []string {
	var out []string
	for _, p := range c.Lineage() {
		for _, fl := range p.Flags {
			out = append(out, fl.Names()...)
		}
	}
	return out
}
