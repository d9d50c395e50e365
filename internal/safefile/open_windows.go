//go:build windows

package safefile

import "os"

// openNoBlock: Windows has no FIFOs in the file system; a plain open.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }

func openFollowNoBlock(path string) (*os.File, error) { return os.Open(path) }
