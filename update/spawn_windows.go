//go:build windows

package update

import (
	"os/exec"
	"syscall"
)

// DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP: no console, no Ctrl-C.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: 0x00000008 | 0x00000200}
}
