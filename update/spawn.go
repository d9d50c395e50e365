package update

import "os/exec"

// Spawn starts `exe update --background-check` detached from this process
// (its own session, no terminal, stdio on the null device) and does not
// wait for it: the check outlives the command that started it.
func Spawn(exe string) error {
	cmd := exec.Command(exe, "update", "--background-check")
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
