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
	// Repoint changes a stopped stack first: --server-binary, --port-base.
	Repoint stack.Repoint
}

func newStackStartCmd(f *Factory) *cli.Command {
	opts := &stackStartOptions{}
	return &cli.Command{
		Name:  "start",
		Usage: "Start a stack and wait until it is ready",
		Description: describe("Starting a running stack changes nothing; a crashed one is cleaned up and started.\n"+
			"--server-binary points a stopped stack at another server (its own was removed);\n"+
			"--port-base moves it to other ports (one was taken). Both keep its key and data.",
			"loams stack start dev", "loams stack start dev --wait-timeout 2m", "loams stack start dev --port-base 21000"),
		Flags: []cli.Flag{nameFlag(&opts.Name, false),
			&cli.DurationFlag{Name: "wait-timeout", Value: stack.DefaultWait, Usage: "how long to wait for the server to be ready", Destination: &opts.Wait},
			&cli.StringFlag{Name: "server-binary", Usage: "run a stopped stack on this Loams server binary from now on (recorded in stack.toml)", Destination: &opts.Repoint.ServerBinary},
			&cli.IntFlag{Name: "port-base", Usage: "move a stopped stack to ports BASE+offset (keeps its key)", Destination: &opts.Repoint.PortBase}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackStart(ctx, f, opts)
		},
	}
}

func runStackStart(ctx context.Context, f *Factory, opts *stackStartOptions) error {
	t, err := f.startTarget(opts.Name)
	if err != nil {
		return err
	}
	ws, err := f.Workspace()
	if err != nil {
		return err
	}
	if opts.Repoint != (stack.Repoint{}) {
		sv, err := f.Supervisor()
		if err != nil {
			return err
		}
		if _, err := sv.Repoint(ctx, t.Stack, opts.Repoint); err != nil {
			return err
		}
		if opts.Repoint.PortBase > 0 {
			f.Notice("stack %s moved to ports from %d; its key is unchanged: rewrite the app's file with `loams env export --write .env.loams`", t.Stack, opts.Repoint.PortBase)
		}
	}
	var d *stack.Description
	if err := f.withProgress("starting "+t.Stack+"…", func() (err error) { d, err = ws.Start(ctx, t.Stack, opts.Wait); return err }); err != nil {
		return err
	}
	return f.printStack(d, t)
}
