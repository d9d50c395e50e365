package commands

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/serverbin"
	"loams.dev/cli/stack"
)

type serverRemoveOptions struct {
	Version string // the VERSION argument
	Yes     bool
}

func newServerRemoveCmd(f *Factory) *cli.Command {
	opts := &serverRemoveOptions{}
	return &cli.Command{
		Name:      "remove",
		Usage:     "Remove an installed Loams server version",
		ArgsUsage: "VERSION",
		Description: describe("Deletes $LOAMS_HOME/servers/VERSION (every variant). A running stack that uses it\n"+
			"is a conflict: stop it first. Servers found elsewhere (packages, PATH) are not touched.",
			"loams server remove 0.2.0 --yes"),
		Flags: []cli.Flag{&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask", Destination: &opts.Yes}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return errs.New(errs.Usage, "run `loams server remove VERSION --yes` (`loams server list` shows the versions)", "server remove takes one VERSION")
			}
			opts.Version = cmd.Args().First()
			return runServerRemove(ctx, f, opts)
		},
	}
}

func runServerRemove(ctx context.Context, f *Factory, opts *serverRemoveOptions) error {
	h, err := f.Home()
	if err != nil {
		return err
	}
	v, ok := serverbin.ParseVersion(opts.Version)
	if !ok {
		return errs.New(errs.Usage, "give a version such as 0.2.0", "invalid version %q", opts.Version)
	}
	dir := filepath.Join(serverbin.ServersDir(h), v.String()) + string(filepath.Separator)
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	ds, err := sv.Status(ctx, "")
	if err != nil {
		return err
	}
	for _, d := range ds {
		if strings.HasPrefix(d.ServerBinary, dir) && d.State != stack.Stopped && d.State != stack.Crashed {
			return errs.New(errs.StackRunning, "stop it first: `loams stack stop --name "+d.Name+"`",
				"stack %q runs server %s", d.Name, v).With("name", d.Name)
		}
	}
	if !opts.Yes {
		if !f.CanPrompt() {
			return errs.New(errs.ConfirmationRequired, "run `loams server remove "+opts.Version+" --yes`", "removing server %s needs a yes", v)
		}
		if ok, err := f.askYes("Remove server "+v.String()+" ("+dir+")?", false); err != nil || !ok {
			return err
		}
	}
	removed, err := serverbin.Remove(h, v.String())
	if err != nil {
		return err
	}
	return f.Printer().Print(output.View{JSON: map[string]any{"version": v.String(), "removed": removed},
		Rows: [][]string{{"version", v.String()}, {"removed", map[bool]string{true: "yes", false: "no (not installed)"}[removed]}}})
}
