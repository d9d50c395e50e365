package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"loams.dev/cli/internal/errs"
)

// ReadRegular reads a configuration file loams does not own (an agent's
// config, a project's loams.toml) without trusting what is there: target
// is the path already resolved (symlinks followed, and confined where the
// caller must), shown the path as the user knows it, for messages. Only a
// regular file of at most limit bytes is read; the open never blocks (a
// FIFO or a device is refused by its type, not read), and a directory in
// the file's place is config_unreadable, never an internal error.
func ReadRegular(target, shown string, limit int64) ([]byte, fs.FileMode, error) {
	f, err := openNoBlock(target)
	if err != nil {
		return nil, 0, Unreadable(shown, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, Unreadable(shown, err)
	}
	switch {
	case fi.IsDir():
		return nil, 0, errs.New(errs.ConfigUnreadable, "move the directory aside (a file is expected there) and run the command again",
			"%s is a directory, not a config file", shown).With("path", shown)
	case !fi.Mode().IsRegular():
		return nil, 0, errs.New(errs.ConfigUnreadable, "replace it with a regular file (or remove it) and run the command again",
			"%s is not a regular file (%s); loams reads only regular files", shown, Kind(fi.Mode())).With("path", shown)
	case fi.Size() > limit:
		return nil, 0, tooLarge(shown, limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, Unreadable(shown, err)
	}
	if int64(len(data)) > limit {
		return nil, 0, tooLarge(shown, limit) // it grew while we read
	}
	return data, fi.Mode().Perm(), nil
}

func tooLarge(path string, limit int64) error {
	return errs.New(errs.ConfigUnreadable, "check what this file is, and move it aside if it is not the config loams expects",
		"%s is larger than %d MiB; loams does not read it", path, limit>>20).With("path", path)
}

// Unreadable is the coded error for a config file that cannot be read:
// forbidden when permissions stop it, config_unreadable otherwise.
func Unreadable(path string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return errs.New(errs.Forbidden, "give your user read access to "+path+" (or run as its owner) and run the command again",
			"cannot read %s: permission denied", path).With("path", path).Wrap(err)
	}
	return errs.New(errs.ConfigUnreadable, "check the file and its directories, then run the command again",
		"cannot read %s: %v", path, err).With("path", path).Wrap(err)
}

// Kind names what a file that is not a regular file is, article and all
// ("a named pipe"), for the errors that refuse it: here and treecopy's.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a file of type " + m.Type().String()
}

// OpenRegular opens path for reading only if it is a regular file, without
// ever blocking in the open: a FIFO put where a file was expected (a
// release mirror on disk, a state file) would otherwise hold loams
// forever. Anything else is an *fs.PathError wrapping ErrNotRegular.
func OpenRegular(path string) (*os.File, error) {
	f, err := openFollowNoBlock(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return f, nil
}
