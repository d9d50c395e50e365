package commands

import "github.com/urfave/cli/v3"

func newConfigureCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "configure",
		Usage: "Read and change settings of the active profile in config.toml",
		Description: describe("Settings: "+joinKeys()+". The profile is `default` unless --profile or LOAMS_PROFILE names another.",
			"loams configure list", "loams configure set default_stack dev", "loams --profile work configure get output"),
		Commands: []*cli.Command{
			newConfigureGetCmd(f), newConfigureSetCmd(f), newConfigureUnsetCmd(f), newConfigureListCmd(f),
		},
	}
}
