//go:build unix

package commands

import (
	"os"

	"golang.org/x/sys/unix"
)

// redirectOutput points this process's stdout and stderr at file, so the
// server exec'd next inherits them.
func redirectOutput(f *Factory, file *os.File) error {
	for _, fd := range []int{1, 2} {
		if err := unix.Dup2(int(file.Fd()), fd); err != nil {
			return err
		}
	}
	f.IO.Out, f.IO.ErrOut = file, file
	return nil
}
