package commands

import (
	"context"
	"time"

	"github.com/urfave/cli/v3"
	"loams.dev/cli/stack"
)

func newStackRestartCmd(f *Factory) *cli.Command {
	var name string
	var wait time.Duration
	var upgrade bool
	return &cli.Command{
		Name:        "restart",
		Usage:       "Stop a stack, then start it again",
		Description: describe("", "loams stack restart dev", "loams stack restart dev --upgrade"),
		Flags: []cli.Flag{nameFlag(&name, false),
			&cli.DurationFlag{Name: "wait-timeout", Value: stack.DefaultWait, Usage: "how long to wait for the server to be ready", Destination: &wait},
			&cli.BoolFlag{Name: "upgrade", Usage: "move the stack to the current server (`loams server list`)", Destination: &upgrade}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			t, err := f.stackTarget(name)
			if err != nil {
				return err
			}
			n := t.Stack
			sv, err := f.Supervisor()
			if err != nil {
				return err
			}
			if err := f.withProgress("stopping "+n+"…", func() error { _, err := f.stopStack(ctx, sv, n, stack.DefaultGrace); return err }); err != nil {
				return err
			}
			if upgrade {
				spec, err := sv.UseCurrentServer(ctx, n)
				if err != nil {
					return err
				}
				f.say("stack %s now runs %s (%s)", n, spec.ServerVersion, spec.ServerBinary)
			}
			return runStackStart(ctx, f, n, wait)
		},
	}
}
