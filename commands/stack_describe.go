package commands

import (
	"context"

	"github.com/urfave/cli/v3"
)

type stackDescribeOptions struct {
	Name string // "" asks the target rule
}

func newStackDescribeCmd(f *Factory) *cli.Command {
	opts := &stackDescribeOptions{}
	return &cli.Command{
		Name:        "describe",
		Usage:       "Show a stack's state, endpoints and environment variable names",
		Description: describe("", "loams stack describe dev", "loams stack describe dev --output json"),
		Flags:       []cli.Flag{nameFlag(&opts.Name, false)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackDescribe(ctx, f, opts)
		},
	}
}

func runStackDescribe(ctx context.Context, f *Factory, opts *stackDescribeOptions) error {
	t, sv, err := f.stackAndSupervisor(opts.Name)
	if err != nil {
		return err
	}
	n := t.Stack
	d, err := sv.Describe(ctx, n)
	if err != nil {
		return err
	}
	return f.printStack(d, t)
}
