package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/stack"
)

func newStackRunCmd(f *Factory) *cli.Command {
	var name, loamsHome string
	var toLog bool
	return &cli.Command{
		Name:  "run",
		Usage: "Run a stack's server in the foreground (for systemd and launchd)",
		Description: describe("Runs the same command line as `stack start`, attached to this terminal; the\n"+
			"server's exit code is loams' exit code. `loams stack autostart on` registers it\n"+
			"with your service manager.",
			"loams stack run dev"),
		Flags: []cli.Flag{nameFlag(&name, true),
			// For a Windows logon task, which has neither output
			// redirection nor an environment of its own.
			&cli.BoolFlag{Name: "log", Hidden: true, Usage: "append the server's output to the stack's log", Destination: &toLog},
			&cli.StringFlag{Name: "loams-home", Hidden: true, Usage: "LOAMS_HOME of the stack", Destination: &loamsHome}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if loamsHome != "" {
				getenv := f.Getenv
				f.Getenv = func(k string) string {
					if k == "LOAMS_HOME" {
						return loamsHome
					}
					return getenv(k)
				}
			}
			sv, err := f.Supervisor()
			if err != nil {
				return err
			}
			if toLog {
				log, err := stack.OpenLog(sv.Home, name)
				if err != nil {
					return err
				}
				if err := redirectOutput(f, log); err != nil {
					return err
				}
			}
			argv, env, err := sv.Command(ctx, name)
			if err != nil {
				return err
			}
			if err := sv.RecordRun(name); err != nil {
				return err
			}
			return execServer(f, argv, env)
		},
	}
}
