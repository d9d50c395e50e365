package commands

import (
	"github.com/urfave/cli/v3"
)

func newStackCmd(f *Factory) *cli.Command {
	c := &cli.Command{
		Name:  "stack",
		Usage: "Create, start, stop and inspect local Loams stacks",
		Description: describe("A stack is one local Loams server process with its own ports, data and API key.\n"+
			"Name it positionally, with --name or with --stack.",
			"loams stack create dev", "loams stack describe dev", "loams stack stop dev"),
		Commands: []*cli.Command{
			newStackCreateCmd(f), newStackDescribeCmd(f), newStackListCmd(f), newStackStartCmd(f), newStackStopCmd(f),
			newStackRestartCmd(f), newStackSnapshotCmd(f), newStackRestoreCmd(f),
			// prune before run: a suggestion for `prun` takes the first of equals.
			newStackPruneCmd(f), newStackRunCmd(f), newStackLogsCmd(f), newStackDeleteCmd(f), newStackAutostartCmd(f),
		},
	}
	for _, sub := range c.Commands {
		if hasFlag(sub, "name") && sub.Before == nil {
			sub.ArgsUsage = "[NAME]"
			sub.Before = positionalStackName
			sub.ShellComplete = completeStackName(f)
		}
	}
	return c
}
