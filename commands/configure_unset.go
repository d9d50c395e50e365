package commands

import (
	"context"

	"github.com/urfave/cli/v3"
)

type configureUnsetOptions struct {
	Key string // the KEY argument
}

func newConfigureUnsetCmd(f *Factory) *cli.Command {
	opts := &configureUnsetOptions{}
	return &cli.Command{
		Name: "unset", Usage: "Remove one setting", ArgsUsage: "KEY",
		Description: describe("", "loams configure unset output"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			key, err := oneArg(cmd, "KEY")
			if err != nil {
				return err
			}
			opts.Key = key
			return runConfigureUnset(ctx, f, opts)
		},
	}
}

func runConfigureUnset(ctx context.Context, f *Factory, opts *configureUnsetOptions) error {
	return editSetting(f, opts.Key, "", true)
}
