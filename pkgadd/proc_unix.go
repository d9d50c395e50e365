//go:build unix

package pkgadd

import (
	"os"
	"os/exec"
	"syscall"
)

// killGroup makes the timeout kill the package manager's children too
// (npm and pnpm spawn node processes that would otherwise outlive it).
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

func executableNames(path string) []string { return []string{path} }

func isExecutable(fi os.FileInfo) bool { return fi.Mode()&0o111 != 0 }
