package commands

import (
	"context"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/stack"
)

type stackStartOptions struct {
	Name string        // "" asks the target rule
	Wait time.Duration // --wait-timeout
}

func newStackStartCmd(f *Factory) *cli.Command {
	opts := &stackStartOptions{}
	return &cli.Command{
		Name:  "start",
		Usage: "Start a stack and wait until it is ready",
		Description: describe("Starting a running stack changes nothing; a crashed one is cleaned up and started.",
			"loams stack start dev", "loams stack start dev --wait-timeout 2m"),
		Flags: []cli.Flag{nameFlag(&opts.Name, false),
			&cli.DurationFlag{Name: "wait-timeout", Value: stack.DefaultWait, Usage: "how long to wait for the server to be ready", Destination: &opts.Wait}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackStart(ctx, f, opts)
		},
	}
}

func runStackStart(ctx context.Context, f *Factory, opts *stackStartOptions) error {
	t, err := f.actingTarget(opts.Name)
	if err != nil {
		return err
	}
	ws, err := f.Workspace()
	if err != nil {
		return err
	}
	var d *stack.Description
	if err := f.withProgress("starting "+t.Stack+"…", func() (err error) { d, err = ws.Start(ctx, t.Stack, opts.Wait); return err }); err != nil {
		return err
	}
	return f.printStack(d, t)
}
