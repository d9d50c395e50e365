//go:build !loamstest

package stack

import "loams.dev/cli/internal/home"

// testPortBase is the tests' port seam; see seam_loamstest.go. A release
// build allocates as documented, whatever the environment says.
func testPortBase(home.Home) int { return 0 }
