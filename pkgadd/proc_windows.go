//go:build windows

package pkgadd

import (
	"os"
	"os/exec"
)

func killGroup(cmd *exec.Cmd) {}

// executableNames tries the extensions Windows runs (npm is npm.cmd).
func executableNames(path string) []string {
	return []string{path + ".exe", path + ".cmd", path + ".bat", path}
}

func isExecutable(fi os.FileInfo) bool { return true }
