package safefile

import (
	"path/filepath"
	"strings"
)

// CheckInHome is the one rule for a file inside LOAMS_HOME whose content
// loams runs or installs (stack.toml and config.toml name server binaries,
// update/previous.json names the binary a rollback installs, servers/
// holds installed servers): home, every directory between home and path,
// and path itself must belong to this user (or root) and be writable by no
// one else (CheckPrivate), else unsafe_permissions naming the first that
// is not. A path outside home is not checked here: a binary the user put
// elsewhere (/usr/bin, Homebrew) is theirs to trust. Missing paths are
// skipped: what is not there cannot have been planted.
func CheckInHome(home, path, stakes string) error {
	home, path = filepath.Clean(home), filepath.Clean(path)
	if !Inside(home, path) {
		return nil
	}
	paths := []string{home}
	rel, _ := filepath.Rel(home, path)
	cur := home
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." || part == "" {
			continue
		}
		cur = filepath.Join(cur, part)
		paths = append(paths, cur)
	}
	return CheckPrivate(paths, true, stakes)
}
