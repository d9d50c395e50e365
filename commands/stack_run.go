package commands

import (
	"context"

	"github.com/urfave/cli/v3"
)

func newStackRunCmd(f *Factory) *cli.Command {
	var name string
	return &cli.Command{
		Name:  "run",
		Usage: "Run a stack's server in the foreground (for systemd and launchd)",
		Description: describe("Runs the same command line as `stack start`, attached to this terminal; the\n"+
			"server's exit code is loams' exit code.",
			"loams stack run dev"),
		Flags: []cli.Flag{nameFlag(&name, true)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			sv, err := f.Supervisor()
			if err != nil {
				return err
			}
			argv, env, err := sv.Command(ctx, name)
			if err != nil {
				return err
			}
			return execServer(f, argv, env)
		},
	}
}
