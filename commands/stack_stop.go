package commands

import (
	"context"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/stack"
)

func newStackStopCmd(f *Factory) *cli.Command {
	var name string
	var grace time.Duration
	return &cli.Command{
		Name:  "stop",
		Usage: "Stop a stack's server (SIGTERM, then SIGKILL after --grace)",
		Description: describe("Stopping a stopped stack succeeds.",
			"loams stack stop dev", "loams stack stop dev --grace 5s"),
		Flags: []cli.Flag{nameFlag(&name, false),
			&cli.DurationFlag{Name: "grace", Value: stack.DefaultGrace, Usage: "how long the server gets to shut down before SIGKILL", Destination: &grace}},
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
			var d *stack.Description
			if err := f.withProgress("stopping "+n+"…", func() (err error) { d, err = f.stopStack(ctx, sv, n, grace); return err }); err != nil {
				return err
			}
			return f.printStack(d, t)
		},
	}
}

// stopStack stops a stack itself, or through the service manager that
// runs it (`stack autostart`).
func (f *Factory) stopStack(ctx context.Context, sv *stack.Supervisor, name string, grace time.Duration) (*stack.Description, error) {
	if r := f.managed(name); r != nil {
		return f.stopManaged(ctx, r, sv, grace)
	}
	return sv.Stop(ctx, name, grace)
}
