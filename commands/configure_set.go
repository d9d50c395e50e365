package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
)

type configureSetOptions struct {
	Key, Value string // the KEY and VALUE arguments
}

func newConfigureSetCmd(f *Factory) *cli.Command {
	opts := &configureSetOptions{}
	return &cli.Command{
		Name: "set", Usage: "Change one setting", ArgsUsage: "KEY VALUE",
		Description: describe("", "loams configure set secrets file", "loams configure set server_binary /opt/loams/bin/loams-server"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 2 {
				return errs.New(errs.Usage, "usage: loams configure set KEY VALUE", "configure set takes a key and a value")
			}
			opts.Key, opts.Value = cmd.Args().Get(0), cmd.Args().Get(1)
			return runConfigureSet(ctx, f, opts)
		},
	}
}

func runConfigureSet(ctx context.Context, f *Factory, opts *configureSetOptions) error {
	return editSetting(f, opts.Key, opts.Value, false)
}
