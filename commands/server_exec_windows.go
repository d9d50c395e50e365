//go:build windows

package commands

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"strconv"

	"loams.dev/cli/internal/errs"
)

// execServer runs the server as a child (Windows cannot replace a
// process): Ctrl-C reaches both through the console, loams ignores it and
// waits, and a kill of loams' own signal is passed on; the child's exit
// code becomes loams'.
func execServer(f *Factory, argv, env []string) error {
	c := exec.Command(argv[0], argv[1:]...)
	c.Stdin, c.Stdout, c.Stderr = f.IO.In, f.IO.Out, f.IO.ErrOut
	c.Env = env
	if err := c.Start(); err != nil {
		return errs.New(errs.ServerError, "check the server binary's path and permissions, or point LOAMS_SERVER_BINARY at the Loams server", "running %s: %v", argv[0], err).Wrap(err)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for range sigs { // the console delivered it to the server too; a second one means now
			if _, again := <-sigs; again {
				_ = c.Process.Kill()
			}
		}
	}()
	err := c.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return exitCode(ee.ExitCode())
	}
	return err
}

// exitCode passes a child's exit status through as loams' own.
type exitCode int

func (e exitCode) Error() string { return "exit status " + strconv.Itoa(int(e)) }
func (e exitCode) ExitCode() int { return int(e) }
