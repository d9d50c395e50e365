package commands

import (
	"context"
	"os"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/serverbin"
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
			// Set by a CLI that probes or forwards to a binary: if that binary
			// is a loams CLI (a copy, an older install), it must not forward again.
			if f.Getenv(serverbin.PassthroughMarker) != "" {
				return errs.New(errs.Usage, "point LOAMS_SERVER_BINARY (or `loams server list`) at the Loams server, not at a loams CLI",
					"this is the loams CLI, started as the server by another loams; it does not forward `%s` again", name)
			}
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
			return runForeground(f, append([]string{bin, name}, cmd.Args().Slice()...), append(os.Environ(), serverbin.PassthroughMarker+"="+bin))
		},
	}
}
