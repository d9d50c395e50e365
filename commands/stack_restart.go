package commands

import (
	"context"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/stack"
)

type stackRestartOptions struct {
	Name    string        // "" asks the target rule
	Wait    time.Duration // --wait-timeout
	Upgrade bool          // move to the current server between stop and start
}

func newStackRestartCmd(f *Factory) *cli.Command {
	opts := &stackRestartOptions{}
	return &cli.Command{
		Name:        "restart",
		Usage:       "Stop a stack, then start it again",
		Description: describe("", "loams stack restart dev", "loams stack restart dev --upgrade"),
		Flags: []cli.Flag{nameFlag(&opts.Name, false),
			&cli.DurationFlag{Name: "wait-timeout", Value: stack.DefaultWait, Usage: "how long to wait for the server to be ready", Destination: &opts.Wait},
			&cli.BoolFlag{Name: "upgrade", Usage: "move the stack to the current server (`loams server list`)", Destination: &opts.Upgrade}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackRestart(ctx, f, opts)
		},
	}
}

func runStackRestart(ctx context.Context, f *Factory, opts *stackRestartOptions) error {
	t, err := f.startTarget(opts.Name) // it starts the stack again
	if err != nil {
		return err
	}
	ws, err := f.Workspace()
	if err != nil {
		return err
	}
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	n := t.Stack
	if err := f.withProgress("stopping "+n+"…", func() error { _, err := ws.Stop(ctx, n, stack.DefaultGrace); return err }); err != nil {
		return err
	}
	if opts.Upgrade {
		spec, err := sv.UseCurrentServer(ctx, n)
		if err != nil {
			return err
		}
		f.say("stack %s now runs %s (%s)", n, spec.ServerVersion, spec.ServerBinary)
	}
	return runStackStart(ctx, f, &stackStartOptions{Name: n, Wait: opts.Wait})
}
