package commands

import (
	"github.com/urfave/cli/v3"

	"loams.dev/cli/autostart"
)

func newStackAutostartCmd(f *Factory) *cli.Command {
	c := &cli.Command{
		Name:  "autostart",
		Usage: "Start a stack at login and after a crash, with your own service manager",
		Description: describe("Registers `loams stack run NAME` with systemd (a user unit), launchd (a\n"+
			"LaunchAgent) or the Task Scheduler (a logon task). `stack start`, `stop` and\n"+
			"`restart` of such a stack then go through the service manager.",
			"loams stack autostart on dev", "loams stack autostart on dev --dry-run --os darwin",
			"loams stack autostart status dev", "loams stack autostart off dev"),
		Commands: []*cli.Command{newAutostartOnCmd(f), newAutostartOffCmd(f), newAutostartStatusCmd(f)},
	}
	for _, sub := range c.Commands {
		sub.ArgsUsage = "[NAME]"
		sub.Before = positionalStackName
		sub.ShellComplete = completeStackName(f)
	}
	return c
}

// autostartTarget is the stack an autostart verb acts on (name when
// given, else the target rule) and its registration on this machine.
func autostartTarget(f *Factory, name string) (string, *autostart.Registration, error) {
	n, err := f.stackName(name)
	if err != nil {
		return n, nil, err
	}
	r, err := f.autostart().Registration(n, "")
	return n, r, err
}
