//go:build loamstest

package stack

import (
	"os"
	"strconv"
)

// testPortBase is where the allocator starts, instead of the documented
// ports and 20000, in the tests' builds of loams (`-tags loamstest`, see
// internal/testkit/testbin) when LOAMS_TEST_PORT_BASE is set. Test processes run
// side by side, each with its own LOAMS_HOME and so its own create lock:
// without it they all reach for 8080 at once and one server loses the bind.
// The process id spreads them over 30 blocks above the base. Release builds
// never read it (seam_release.go).
func testPortBase() int {
	n, err := strconv.Atoi(os.Getenv("LOAMS_TEST_PORT_BASE"))
	if err != nil || n <= 0 {
		return 0
	}
	return n + os.Getpid()%30*baseStep
}
