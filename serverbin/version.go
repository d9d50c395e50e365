package serverbin

import (
	"cmp"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Version is a release number; pre-release and build suffixes are ignored.
type Version struct{ Major, Minor, Patch int }

var versionPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`v?(\d+)\.(\d+)\.(\d+)`) })

// ParseVersion finds the first X.Y.Z in s ("loams 0.0.1", "v1.2.3").
func ParseVersion(s string) (Version, bool) {
	m := versionPattern().FindStringSubmatch(s)
	if m == nil {
		return Version{}, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	c, _ := strconv.Atoi(m[3])
	return Version{a, b, c}, true
}

// semverPattern is a semantic version with its pre-release and build
// suffixes, after an optional v.
var semverPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)`)
})

// SemVer is the server's version as GetInstance reports it ("0.0.7"), from
// either that or the `--version` line ("loams 0.0.7"): the one form
// server_version takes everywhere. A line with no version is returned
// without the program name.
func SemVer(s string) string {
	if m := semverPattern().FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "loams "))
}

// Compare orders versions.
func (v Version) Compare(o Version) int {
	if c := cmp.Compare(v.Major, o.Major); c != 0 {
		return c
	}
	if c := cmp.Compare(v.Minor, o.Minor); c != 0 {
		return c
	}
	return cmp.Compare(v.Patch, o.Patch)
}

func (v Version) String() string {
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor) + "." + strconv.Itoa(v.Patch)
}

// Compatibility values (server.md, "Version skew").
const (
	Compatible = "compatible" // the CLI's own minor or one below
	Older      = "older"      // older than that: works, with a notice
	Newer      = "newer"      // a later minor than the CLI knows
)

// Skew says how a server version relates to the CLI's: the CLI works with
// servers of its own minor or one below. "" when either is unknown or the
// CLI is a dev build (which skips the check).
func Skew(cliVersion, serverVersion string, cliIsDev bool) string {
	if cliIsDev {
		return ""
	}
	c, ok1 := ParseVersion(cliVersion)
	s, ok2 := ParseVersion(serverVersion)
	if !ok1 || !ok2 {
		return ""
	}
	switch {
	case s.Major < c.Major || s.Major == c.Major && s.Minor < c.Minor-1:
		return Older
	case s.Major > c.Major || s.Major == c.Major && s.Minor > c.Minor:
		return Newer
	}
	return Compatible
}
