package errs

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// FromOS turns an operating-system failure the user can act on into its
// code: out of disk or quota is disk_full (exit 7), permission denied or a
// read-only file system is forbidden (exit 8), each naming the path. Coded
// errors, nil and every other error are returned unchanged. errs.As calls
// it, so no command reports a full disk as a bug; writers call it too, to
// name the file they meant rather than a temp file beside it.
func FromOS(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	path := osPath(err)
	switch {
	case diskFull(err):
		return New(DiskFull, "free some space (or raise the quota) on the disk that holds "+orThis(path)+", then run the command again",
			"no space left to write %s", orThis(path)).With("path", path).Wrap(err)
	case readOnlyFS(err):
		return New(Forbidden, "the file system that holds "+orThis(path)+" is mounted read-only; point LOAMS_HOME or the path at a writable one",
			"cannot write %s: read-only file system", orThis(path)).With("path", path).Wrap(err)
	case errors.Is(err, fs.ErrPermission):
		return New(Forbidden, "check the owner and mode of "+orThis(path)+" (`ls -ld "+orThis(path)+"`), or use a path you may write",
			"permission denied: %s", orThis(path)).With("path", path).Wrap(err)
	}
	return err
}

// osPath is the outermost path named in err's chain: a writer that wraps
// a temp file's error in its target's PathError names the target.
func osPath(err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Path
	case errors.As(err, &le):
		return le.New
	}
	return ""
}

func orThis(path string) string {
	if path == "" {
		return "this path"
	}
	if strings.ContainsAny(path, " \t'\"") {
		return "'" + path + "'"
	}
	return path
}
