package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
)

type configureGetOptions struct {
	Key string // the KEY argument
}

func newConfigureGetCmd(f *Factory) *cli.Command {
	opts := &configureGetOptions{}
	return &cli.Command{
		Name: "get", Usage: "Print one setting", ArgsUsage: "KEY",
		Description: describe("", "loams configure get default_stack"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			key, err := oneArg(cmd, "KEY")
			if err != nil {
				return err
			}
			opts.Key = key
			return runConfigureGet(ctx, f, opts)
		},
	}
}

func runConfigureGet(ctx context.Context, f *Factory, opts *configureGetOptions) error {
	key := opts.Key
	if _, ok := config.Keys[key]; !ok {
		return errs.New(errs.Usage, "known keys: "+joinKeys(), "unknown configuration key %q", key).With("key", key)
	}
	p, err := f.Profile()
	if err != nil {
		return err
	}
	v := p.Get(key)
	return f.Printer().Print(output.View{
		JSON: map[string]any{"profile": p.Name, "key": key, "value": v},
		Raw:  v + "\n",
	})
}
