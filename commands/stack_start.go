package commands

import (
	"context"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/stack"
)

func newStackStartCmd(f *Factory) *cli.Command {
	var name string
	var wait time.Duration
	return &cli.Command{
		Name:  "start",
		Usage: "Start a stack and wait until it is ready",
		Description: describe("Starting a running stack changes nothing; a crashed one is cleaned up and started.",
			"loams stack start dev", "loams stack start dev --wait-timeout 2m"),
		Flags: []cli.Flag{nameFlag(&name, false),
			&cli.DurationFlag{Name: "wait-timeout", Value: stack.DefaultWait, Usage: "how long to wait for the server to be ready", Destination: &wait}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackStart(ctx, f, name, wait)
		},
	}
}

func runStackStart(ctx context.Context, f *Factory, name string, wait time.Duration) error {
	t, err := f.stackTarget(name)
	if err != nil {
		return err
	}
	n := t.Stack
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	start := sv.Start
	if r := f.managed(n); r != nil { // autostarted: the service manager starts it
		start = func(ctx context.Context, _ string, wait time.Duration) (*stack.Description, error) {
			return f.startManaged(ctx, r, sv, wait)
		}
	}
	var d *stack.Description
	if err := f.withProgress("starting "+n+"…", func() (err error) { d, err = start(ctx, n, wait); return err }); err != nil {
		return err
	}
	return f.printStack(d, t)
}
