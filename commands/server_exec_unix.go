//go:build unix

package commands

import (
	"syscall"

	"loams.dev/cli/internal/errs"
)

// execServer replaces loams with the server (argv[0] must be absolute):
// the server keeps loams' pid, terminal and signals, and its exit code is
// the shell's. It returns only when the exec fails.
func execServer(_ *Factory, argv, env []string) error {
	err := syscall.Exec(argv[0], argv, env)
	return errs.New(errs.ServerError, "check the server binary's path and permissions, or point LOAMS_SERVER_BINARY at the Loams server",
		"running %s: %v", argv[0], err).With("path", argv[0]).Wrap(err)
}
