package update

import (
	"encoding/json"
	"os"
	"path/filepath"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// previous is $LOAMS_HOME/update/previous.json, beside the kept binary.
type previous struct {
	Version string `json:"version"`
	Binary  string `json:"binary"`
}

// readPrevious reads update/previous.json and checks what it names
// before anything is run: previous.json, the binary and their directories
// must be this user's and writable by no one else (safefile.CheckInHome),
// and the binary must be the one keep wrote under update/, not a path
// anyone could have put in the file.
func (u *Updater) readPrevious() (previous, error) {
	var p previous
	dir := u.previousDir()
	file := filepath.Join(dir, "previous.json")
	const stakes = "loams will not run or install the binary it names"
	if err := safefile.CheckInHome(u.Home.Dir, file, stakes); err != nil {
		return p, err
	}
	data, _, err := safefile.ReadRegular(file, file, 1<<16) // never blocks on a FIFO
	if err == nil {
		err = json.Unmarshal(data, &p)
	}
	if err != nil || !isFile(p.Binary) {
		return p, errs.New(errs.ServerBinaryNotFound, "`loams update --rollback` works after a `loams update`",
			"no previous loams is kept in %s", dir).With("path", dir)
	}
	if real, err := filepath.EvalSymlinks(p.Binary); err != nil || !safefile.Inside(dir, real) && !safefile.Inside(realDir(dir), real) {
		return p, errs.New(errs.UnsafePermissions, "remove "+file+" (a `loams update` writes it again)",
			"%s names %s, which is not the loams kept in %s; %s", file, p.Binary, dir, stakes).With("path", file)
	}
	if err := safefile.CheckInHome(u.Home.Dir, p.Binary, stakes); err != nil {
		return p, err
	}
	return p, nil
}

func realDir(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

// keep copies the running binary to $LOAMS_HOME/update/ before it is
// replaced (a copy: LOAMS_HOME may be on another file system).
func (u *Updater) keep(exe, version string) (string, error) {
	dir := u.previousDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", errs.FromOS(err)
	}
	dest := filepath.Join(dir, "previous-"+binName())
	tmp := dest + ".tmp"
	_ = os.Remove(tmp)
	if err := copyExec(exe, tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dest); err != nil {
		return "", errs.FromOS(err)
	}
	data, _ := json.Marshal(previous{Version: version, Binary: dest})
	return dest, safefile.Write(filepath.Join(dir, "previous.json"), append(data, '\n'), 0o600)
}
