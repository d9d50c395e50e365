package commands

import (
	"context"
	"errors"
	"os/exec"
	"strconv"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
)

func newStackRunCmd(f *Factory) *cli.Command {
	var name string
	return &cli.Command{
		Name:  "run",
		Usage: "Run a stack's server in the foreground (for systemd and launchd)",
		Description: describe("Runs the same command line as `stack start`, attached to this terminal; the\n"+
			"server's exit code is loams' exit code.",
			"loams stack run --name dev"),
		Flags: []cli.Flag{nameFlag(&name, true)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			sv, err := f.Supervisor()
			if err != nil {
				return err
			}
			argv, env, err := sv.Command(ctx, name)
			if err != nil {
				return err
			}
			return runForeground(f, argv, env)
		},
	}
}

// exitCode passes a child's exit status through as loams' own.
type exitCode int

func (e exitCode) Error() string { return "exit status " + strconv.Itoa(int(e)) }
func (e exitCode) ExitCode() int { return int(e) }

// runForeground runs argv attached to our stdio; signals reach it through
// the shared process group, and its exit code becomes ours.
func runForeground(f *Factory, argv, env []string) error {
	c := exec.Command(argv[0], argv[1:]...)
	c.Stdin, c.Stdout, c.Stderr = f.IO.In, f.IO.Out, f.IO.ErrOut
	c.Env = env
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return exitCode(ee.ExitCode())
	}
	return errs.New(errs.ServerError, "check the server binary's path and permissions", "running %s: %v", argv[0], err)
}
