package testbin

import (
	"os"
	"syscall"
)

// WriteExecutable writes a script or binary that a test is about to run.
//
// A plain os.WriteFile races with parallel tests: while the file is open for
// writing, another goroutine's fork copies the descriptor into its child,
// which holds it until that child execs, and running the file in that window
// fails with "text file busy" (ETXTBSY, golang/go#22315). os/exec forks under
// syscall.ForkLock's read side, so holding its write side while the file is
// open means no child of this process can inherit the descriptor.
func WriteExecutable(path string, data []byte) error {
	syscall.ForkLock.Lock()
	defer syscall.ForkLock.Unlock()
	return os.WriteFile(path, data, 0o755)
}
