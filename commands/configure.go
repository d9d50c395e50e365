package commands

import (
	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
)

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

func joinKeys() string {
	s := ""
	for i, k := range config.KeyNames() {
		if i > 0 {
			s += ", "
		}
		s += k
	}
	return s
}

func oneArg(cmd *cli.Command, name string) (string, error) {
	if cmd.Args().Len() != 1 {
		return "", errs.New(errs.Usage, "usage: "+cmd.FullName()+" "+name, "%s takes exactly one %s", cmd.FullName(), name)
	}
	return cmd.Args().First(), nil
}
