package commands

import (
	"github.com/urfave/cli/v3"
)

// newServerGroupCmd is `loams server`: the server binary the stacks run.
// (newServerCmd is the pass-through of `loams dev|standalone|cluster`.)
func newServerGroupCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "server",
		Usage: "Find, install and remove the Loams server binary the stacks run",
		Description: describe("The server is a separate program, also named loams. `server list` shows every\n"+
			"copy loams finds and which one it uses; `server install` downloads a verified release.",
			"loams server list", "loams server install", "loams server remove 0.2.0 --yes"),
		Commands: []*cli.Command{newServerListCmd(f), newServerInstallCmd(f), newServerRemoveCmd(f)},
	}
}
