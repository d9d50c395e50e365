//go:build windows

package safefile

// CheckPrivate: Windows has no Unix modes; its ACLs are left to the OS.
func CheckPrivate([]string, bool, string) error { return nil }
