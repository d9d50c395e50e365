package commands

import (
	"context"
	"os"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/stack"
)

// newServerCmd forwards `loams dev|standalone|cluster …` verbatim to the
// Loams server binary, so commands from the server's docs keep working.
func newServerCmd(f *Factory, name, usage string) *cli.Command {
	return &cli.Command{
		Name:            name,
		Usage:           usage,
		Description:     describe("Runs the Loams server binary's own `"+name+"` command with the same arguments.", "loams "+name+" --help"),
		SkipFlagParsing: true,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			h, err := f.Home()
			if err != nil {
				return err
			}
			p, err := f.Profile()
			if err != nil {
				return err
			}
			bin, err := stack.Locate(h, "", p.ServerBinary, f.Getenv)
			if err != nil {
				return err
			}
			return runForeground(f, append([]string{bin, name}, cmd.Args().Slice()...), os.Environ())
		},
	}
}
