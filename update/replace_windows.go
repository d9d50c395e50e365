//go:build windows

package update

import (
	"os"

	"loams.dev/cli/internal/errs"
)

// replace: Windows cannot rename over a running .exe, but it can rename
// the running one away first.
func replace(exe, bin string) error {
	old := exe + ".old"
	_ = os.Remove(old)
	if err := os.Rename(exe, old); err != nil {
		return errs.FromOS(err)
	}
	if err := os.Rename(bin, exe); err != nil {
		_ = os.Rename(old, exe)
		return errs.FromOS(err)
	}
	return nil
}
