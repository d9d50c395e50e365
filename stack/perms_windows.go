//go:build windows

package stack

// checkSafe: Windows has no Unix modes, and local stacks do not run there.
func (s *Spec) checkSafe() error { return nil }
