package commands

import (
	"context"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
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
	t, sv, err := f.stackAndSupervisor(opts.Name)
	if err == nil {
		err = f.vouchStack(t)
		if err == nil {
			var ws *workspace.Workspace
			if ws, err = f.Workspace(); err == nil {
				err = ws.EnsureStack(t.Stack) // a git worktree's own stack, on first need
			}
		}
	}
	if err != nil {
		return err
	}
	n := t.Stack
	start := sv.Start
	if r := f.managed(n); r != nil { // autostarted: the service manager starts it
		start = func(ctx context.Context, _ string, wait time.Duration) (*stack.Description, error) {
			return f.startManaged(ctx, r, sv, wait)
		}
	}
	var d *stack.Description
	if err := f.withProgress("starting "+n+"…", func() (err error) { d, err = start(ctx, n, opts.Wait); return err }); err != nil {
		return err
	}
	return f.printStack(d, t)
}
