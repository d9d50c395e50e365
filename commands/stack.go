package commands

import "github.com/urfave/cli/v3"

func newStackCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "stack",
		Usage: "Create, start, stop and inspect local Loams stacks",
		Description: describe("A stack is one local Loams server process with its own ports, data and API key.",
			"loams stack create --name dev", "loams stack describe --name dev", "loams stack stop --name dev"),
		Commands: []*cli.Command{
			newStackCreateCmd(f), newStackDescribeCmd(f), newStackListCmd(f), newStackStartCmd(f), newStackStopCmd(f),
			newStackRestartCmd(f), newStackRunCmd(f), newStackLogsCmd(f), newStackDeleteCmd(f),
		},
	}
}

// nameFlag is --name; required only where the spec says so.
func nameFlag(dst *string, required bool) *cli.StringFlag {
	usage := "stack name (default: the profile's default_stack)"
	if required {
		usage = "stack name"
	}
	return &cli.StringFlag{Name: "name", Usage: usage, Destination: dst, Required: required}
}
