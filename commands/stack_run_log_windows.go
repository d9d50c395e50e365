//go:build windows

package commands

import "os"

// redirectOutput makes file the stdout and stderr that execServer gives
// the server child.
func redirectOutput(f *Factory, file *os.File) error {
	f.IO.Out, f.IO.ErrOut = file, file
	return nil
}
