package agents

import (
	"os"
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/errs"
)

// checkStable refuses to register a binary that will vanish: `go run`
// builds into a go-build directory under the temporary directory (or the
// build cache), and an agent entry naming it breaks at the next clean.
func checkStable(exe string) error {
	if exe == "" || !temporary(exe) {
		return nil
	}
	return errs.New(errs.Usage, "install loams first (`go install loams.dev/cli/cmd/loams@latest`, or a release), then run the command with that binary; or pass --allow-temporary-binary to register this one anyway",
		"%s is a temporary build (go run or a temporary directory): an agent entry naming it stops working when it is cleaned up", exe).With("executable", exe)
}

func temporary(exe string) bool {
	exe = resolve(exe)
	for _, part := range strings.Split(filepath.ToSlash(exe), "/") {
		if strings.HasPrefix(part, "go-build") {
			return true
		}
	}
	for _, dir := range []string{os.TempDir(), os.Getenv("GOCACHE")} {
		if dir == "" {
			continue
		}
		if rel, err := filepath.Rel(resolve(dir), exe); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
