package commands

import (
	"context"

	"github.com/urfave/cli/v3"
)

func newStackDescribeCmd(f *Factory) *cli.Command {
	var name string
	return &cli.Command{
		Name:        "describe",
		Usage:       "Show a stack's state, endpoints and environment variable names",
		Description: describe("", "loams stack describe dev", "loams stack describe dev --output json"),
		Flags:       []cli.Flag{nameFlag(&name, false)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			n, err := f.stackName(name)
			if err != nil {
				return err
			}
			sv, err := f.Supervisor()
			if err != nil {
				return err
			}
			d, err := sv.Describe(ctx, n)
			if err != nil {
				return err
			}
			return f.printStack(d)
		},
	}
}
