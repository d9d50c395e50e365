package commands

import (
	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
)

// oneArg is a verb's one positional argument, named in the usage error.
func oneArg(cmd *cli.Command, name string) (string, error) {
	if cmd.Args().Len() != 1 {
		return "", errs.New(errs.Usage, "usage: "+cmd.FullName()+" "+name, "%s takes exactly one %s", cmd.FullName(), name)
	}
	return cmd.Args().First(), nil
}
