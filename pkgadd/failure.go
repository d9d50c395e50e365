package pkgadd

import "loams.dev/cli/internal/errs"

// Failure is the error of a run whose package manager exited non-zero,
// nil for a run that succeeded (or a dry run). Both faces report it the
// same way: `loams pkg add` exits with it, and MCP add_package returns it
// as a tool error, so an agent never reads a failed install as done.
func Failure(res *Result) error {
	if res == nil || res.DryRun || res.ExitCode == nil || *res.ExitCode == 0 {
		return nil
	}
	if Unreachable(res.OutputTail) {
		return errs.New(errs.ServerError, "check the network and the registry setting (npm_config_registry, PIP_INDEX_URL, GOPROXY), then run `loams pkg add` again: a retry may help",
			"%s could not reach its registry (exit status %d)", res.PackageManager, *res.ExitCode).
			With("command", res.Command).With("exit_code", *res.ExitCode).With("output_tail", res.OutputTail).
			ForAgent("the package registry could not be reached: tell the user (network or registry setting), then call add_package again")
	}
	return errs.New(errs.ServerError, "read the package manager's output, fix the cause and run `loams pkg add` again",
		"%s exited with status %d", res.PackageManager, *res.ExitCode).
		With("command", res.Command).With("exit_code", *res.ExitCode).With("output_tail", res.OutputTail).
		ForAgent("read output_tail in the details, fix the cause (or tell the user what it says), then call add_package again")
}
