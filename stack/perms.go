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
// start would hand it the stack's key.
func (s *Spec) checkSafe() error {
	stacks := filepath.Dir(s.dir)
	return safefile.CheckPrivate([]string{filepath.Dir(stacks), stacks, s.dir, filepath.Join(s.dir, "stack.toml")},
		false, "loams will not run what it names or read its key")
}
