//go:build !loamstest

package stack

// testPortBase is the tests' port seam; see seam_loamstest.go. A release
// build allocates as documented, whatever the environment says.
func testPortBase() int { return 0 }
