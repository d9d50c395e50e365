//go:build unix

package errs

import (
	"errors"
	"syscall"
)

func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

func readOnlyFS(err error) bool { return errors.Is(err, syscall.EROFS) }
