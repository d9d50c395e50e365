//go:build windows

package pkgadd

// notMine: Windows has no Unix owner to compare; its ACLs are left to the OS.
func notMine(string) string { return "" }
