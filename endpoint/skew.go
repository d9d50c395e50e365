package endpoint

import (
	"strconv"
	"strings"
)

// Compatibility values of `status` and `doctor` (server.md, version skew).
const (
	Compatible = "compatible" // the CLI's minor version or one below
	Older      = "older"      // older than that: works, with a notice
	Newer      = "newer"      // newer than the CLI: works, the CLI may lack features
	Unchecked  = "unchecked"  // a dev build of the CLI skips the check
	Unknown    = "unknown"    // the server did not say its version
)

// Compatibility compares the CLI's version with the server's.
func Compatibility(cli, server string) string {
	cmaj, cmin, ok := majorMinor(cli)
	if !ok {
		return Unchecked
	}
	smaj, smin, ok := majorMinor(server)
	switch {
	case !ok:
		return Unknown
	case smaj > cmaj || (smaj == cmaj && smin > cmin):
		return Newer
	case smaj == cmaj && cmin-smin <= 1:
		return Compatible
	}
	return Older
}

func majorMinor(v string) (int, int, bool) {
	v = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(v), "loams "), "v")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	maj, err1 := strconv.Atoi(parts[0])
	min, err2 := strconv.Atoi(strings.SplitN(parts[1], "-", 2)[0])
	return maj, min, err1 == nil && err2 == nil
}
