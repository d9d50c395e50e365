package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/stack"
)

type stackRunOptions struct {
	Name      string
	LoamsHome string // a logon task's LOAMS_HOME
	ToLog     bool   // append to the stack's log
}

func newStackRunCmd(f *Factory) *cli.Command {
	opts := &stackRunOptions{}
	return &cli.Command{
		Name:  "run",
		Usage: "Run a stack's server in the foreground (for systemd and launchd)",
		Description: describe("Runs the same command line as `stack start`, attached to this terminal; the\n"+
			"server's exit code is loams' exit code. `loams stack autostart on` registers it\n"+
			"with your service manager.",
			"loams stack run dev"),
		Flags: []cli.Flag{nameFlag(&opts.Name, true),
			// For a Windows logon task, which has neither output
			// redirection nor an environment of its own.
			&cli.BoolFlag{Name: "log", Hidden: true, Usage: "append the server's output to the stack's log", Destination: &opts.ToLog},
			&cli.StringFlag{Name: "loams-home", Hidden: true, Usage: "LOAMS_HOME of the stack", Destination: &opts.LoamsHome}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackRun(ctx, f, opts)
		},
	}
}

func runStackRun(ctx context.Context, f *Factory, opts *stackRunOptions) error {
	if opts.LoamsHome != "" {
		getenv := f.Getenv
		f.Getenv = func(k string) string {
			if k == "LOAMS_HOME" {
				return opts.LoamsHome
			}
			return getenv(k)
		}
	}
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	if opts.ToLog {
		log, err := stack.OpenLog(sv.Home, opts.Name)
		if err != nil {
			return err
		}
		if err := redirectOutput(f, log); err != nil {
			return err
		}
	}
	argv, env, err := sv.Command(ctx, opts.Name)
	if err != nil {
		return err
	}
	if err := sv.RecordRun(opts.Name); err != nil {
		return err
	}
	return execServer(f, argv, env)
}
