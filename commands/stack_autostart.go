package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/autostart"
	"loams.dev/cli/stack"
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

// autostartOff unregisters the stack, removes the file and stops what the
// manager leaves running. A manager that cannot be reached does not keep
// the file in place: it could never start anything either.
func (f *Factory) autostartOff(ctx context.Context, r *registration) error {
	if !r.p.Registered(r.u, r.s) {
		return nil
	}
	if err := r.run.RunAll(ctx, r.p, r.p.Off(r.u, r.s, r.file)); err != nil {
		f.Notice("%v", err)
	}
	if err := autostart.Remove(r.file); err != nil {
		return err
	}
	if r.p.AfterOff != nil {
		_ = r.run.RunAll(ctx, r.p, r.p.AfterOff(r.u, r.s, r.file))
	}
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	_, err = sv.Stop(ctx, r.s.Stack, stack.DefaultGrace)
	return err
}
