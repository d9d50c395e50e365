//go:build loamstest

package stack

import (
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/testkit/testports"
)

// testPortBase is the block a stack's ports come from in the tests' builds
// of loams (`-tags loamstest`, see internal/testkit/testbin), instead of the
// documented ports and the first free block from 20000. Test processes run
// side by side, each with its own LOAMS_HOME and so its own create lock and
// its own recorded ports: without a claim shared by all of them, two reach
// for 8080 (or one block) at once, both see it free, and one server later
// loses the bind. The claim is held for as long as LOAMS_HOME exists.
// Release builds never claim (seam_release.go); 0 means allocate as usual.
func testPortBase(h home.Home) int {
	base, err := testports.Claim(h.Dir)
	if err != nil {
		return 0
	}
	return base
}
