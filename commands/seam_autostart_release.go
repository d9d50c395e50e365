//go:build !loamstest

package commands

// testAutostartOS is the test seam of seam_autostart_loamstest.go: a
// release build always drives this machine's own service manager.
func testAutostartOS(func(string) string) string { return "" }
