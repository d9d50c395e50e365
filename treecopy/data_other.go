//go:build !linux

package treecopy

import (
	"io"
	"io/fs"
	"os"
	"time"
)

// copyData is io.Copy where the kernel offers no clone loams knows how to
// ask for; macOS's clonefile works on whole trees and is not used yet.
func copyData(out, in *os.File, _ int64) (Method, error) {
	if _, err := io.Copy(out, in); err != nil {
		return "", err
	}
	return Streamed, nil
}

// freeBytes is unknown here: the copy itself reports a full disk.
func freeBytes(string) (int64, bool) { return 0, false }

func clones(string, string) bool { return false }

// identity is unknown here: nothing is cached.
func identity(fs.FileInfo) (cached, bool) { return cached{}, false }

// stamp sets a copied file's mode and modification time.
func stamp(f *os.File, mode fs.FileMode, mtime time.Time) error {
	if err := f.Chmod(mode); err != nil {
		return err
	}
	return os.Chtimes(f.Name(), mtime, mtime)
}
