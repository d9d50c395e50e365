package stack

import (
	"path/filepath"

	"loams.dev/cli/internal/safefile"
)

// checkSafe is ssh's rule for keys applied to a stack: before loams runs
// the binary stack.toml names, or reads the stack's key, LOAMS_HOME,
// stacks/, the stack's directory and stack.toml must belong to this user
// (or root) and be writable by no one else. Otherwise another local user
// could have pointed server_binary at a script of theirs, and the next
// start would hand it the stack's key. A server_binary inside LOAMS_HOME
// (one `loams server install` put under servers/) is held to the same rule.
func (s *Spec) checkSafe() error {
	home := filepath.Dir(filepath.Dir(s.dir))
	const stakes = "loams will not run what it names or read its key"
	if err := safefile.CheckInHome(home, filepath.Join(s.dir, "stack.toml"), stakes); err != nil {
		return err
	}
	if s.ServerBinary == "" {
		return nil
	}
	return safefile.CheckInHome(home, s.ServerBinary, "loams will not run it")
}
