//go:build windows

package errs

import (
	"errors"
	"syscall"
)

// Windows' own codes: ERROR_HANDLE_DISK_FULL (39), ERROR_DISK_FULL (112),
// ERROR_DISK_QUOTA_EXCEEDED (1295), ERROR_WRITE_PROTECT (19).
func diskFull(err error) bool {
	return errors.Is(err, syscall.Errno(39)) || errors.Is(err, syscall.Errno(112)) || errors.Is(err, syscall.Errno(1295))
}

func readOnlyFS(err error) bool { return errors.Is(err, syscall.Errno(19)) }
