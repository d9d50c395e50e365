//go:build !loamstest

package serverbin

// In a release build (no loamstest tag) nothing from the environment can
// add a trusted key or move the system paths: these always answer "none".

// TestKeys is the test seam for trusted minisign keys; see seam_loamstest.go.
func TestKeys(func(string) string) []string { return nil }

// TestRoot is the test seam for the system paths; see seam_loamstest.go.
func TestRoot(func(string) string) string { return "" }
