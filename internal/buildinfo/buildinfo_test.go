package buildinfo

import "testing"

// What `go build` stamps in a clone must count as a development build: no
// SDK pinned to it, no version skew reported against it. Seen on a machine
// without GOFLAGS=-buildvcs=false: a clone with no tag stamped
// 0.0.0-20261203160755-bb193b4941e7, which passed for a release.
func TestIsDevVersion(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		"dev":                                 true,
		"":                                    true,
		"0.0.0-20261203160755-bb193b4941e7":   true, // no tag yet
		"v0.0.0-20261203160755-bb193b4941e7":  true,
		"0.4.1-0.20261203160755-bb193b4941e7": true, // commits after v0.4.0
		"1.2.0-rc.1.0.20261203160755-bb193b4941e7": true, // after a pre-release tag
		"0.0.0-20261203160755-bb193b4941e7+dirty":  true,
		"0.4.0+dirty": true, // the tag, modified
		"0.4.0":       false,
		"v0.4.0":      false,
		"1.2.0-rc.1":  false,
		"0.3.1":       false,
	} {
		if got := IsDevVersion(v); got != want {
			t.Errorf("IsDevVersion(%q) = %v, want %v", v, got, want)
		}
	}
}
