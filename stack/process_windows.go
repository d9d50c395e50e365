//go:build windows

package stack

import (
	"context"
	"os/exec"
	"syscall"

	"loams.dev/cli/internal/errs"
)

// Local stacks supervise a Unix server process; the Loams server does not
// ship for Windows, so these report platform_unsupported.

func detach(*exec.Cmd)                      {}
func alive(int) bool                        { return false }
func startTime(int) string                  { return "" }
func sigterm(int) error                     { return unsupported() }
func sigkill(int) error                     { return unsupported() }
func signalGroup(int, syscall.Signal) error { return unsupported() }

func lockFile(context.Context, string) (func(), error) { return nil, unsupported() }

func unsupported() error {
	return errs.New(errs.PlatformUnsupported, "run local stacks on Linux or macOS (WSL works)", "local stacks are not supported on Windows")
}
