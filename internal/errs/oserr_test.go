//go:build unix

package errs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// The classifier on its own: the errno inside any wrapping decides the
// code, the outermost path is named. (The real disk-full and read-only
// cases run against a tiny tmpfs and an immutable directory in stack/.)
func TestFromOSClassifiesDiskAndPermission(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code Code
		path string
	}{
		{&fs.PathError{Op: "write", Path: "/h/stack.toml", Err: fmt.Errorf("write /h/.tmp: %w", &fs.PathError{Op: "write", Path: "/h/.tmp", Err: syscall.ENOSPC})}, DiskFull, "/h/stack.toml"},
		{&fs.PathError{Op: "write", Path: "/q/f", Err: syscall.EDQUOT}, DiskFull, "/q/f"},
		{&fs.PathError{Op: "mkdir", Path: "/ro/d", Err: syscall.EROFS}, Forbidden, "/ro/d"},
		{fmt.Errorf("create: %w", &fs.PathError{Op: "open", Path: "/p", Err: syscall.EACCES}), Forbidden, "/p"},
		{&os.LinkError{Op: "rename", Old: "/a", New: "/b", Err: syscall.EPERM}, Forbidden, "/b"},
	} {
		e := As(tc.err)
		if e.Code != tc.code || e.Details["path"] != tc.path || !errors.Is(e, tc.err) {
			t.Errorf("%v: got %s %v, want %s naming %s", tc.err, e.Code, e.Details, tc.code, tc.path)
		}
		if e.Hint == "" || e.ExitCode() == 1 {
			t.Errorf("%v: %+v needs a hint and its own exit code", tc.err, e)
		}
	}
	for _, err := range []error{nil, errors.New("other"), &fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOENT}} {
		if got := FromOS(err); got != err {
			t.Errorf("FromOS(%v) = %v, want it unchanged", err, got)
		}
	}
	coded := New(Usage, "h", "m").Wrap(syscall.ENOSPC)
	if FromOS(coded) != error(coded) {
		t.Error("a coded error must pass through")
	}
}
