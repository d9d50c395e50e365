package commands

import (
	"context"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/stack"
)

type stackStopOptions struct {
	Name  string        // "" asks the target rule
	Grace time.Duration // before SIGKILL
}

func newStackStopCmd(f *Factory) *cli.Command {
	opts := &stackStopOptions{}
	return &cli.Command{
		Name:  "stop",
		Usage: "Stop a stack's server (SIGTERM, then SIGKILL after --grace)",
		Description: describe("Stopping a stopped stack succeeds.",
			"loams stack stop dev", "loams stack stop dev --grace 5s"),
		Flags: []cli.Flag{nameFlag(&opts.Name, false),
			&cli.DurationFlag{Name: "grace", Value: stack.DefaultGrace, Usage: "how long the server gets to shut down before SIGKILL", Destination: &opts.Grace}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackStop(ctx, f, opts)
		},
	}
}

func runStackStop(ctx context.Context, f *Factory, opts *stackStopOptions) error {
	t, err := f.actingTarget(opts.Name)
	if err != nil {
		return err
	}
	ws, err := f.Workspace()
	if err != nil {
		return err
	}
	var d *stack.Description
	if err := f.withProgress("stopping "+t.Stack+"…", func() (err error) { d, err = ws.Stop(ctx, t.Stack, opts.Grace); return err }); err != nil {
		return err
	}
	return f.printStack(d, t)
}
