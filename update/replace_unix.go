//go:build !windows

package update

import (
	"os"

	"loams.dev/cli/internal/errs"
)

// replace moves bin over exe in one rename: a loams started at any moment
// runs the old binary or the new one, never a missing or torn file.
func replace(exe, bin string) error { return errs.FromOS(os.Rename(bin, exe)) }
