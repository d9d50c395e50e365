package pkgadd

import (
	"fmt"
	"strconv"
	"strings"

	"loams.dev/cli/internal/buildinfo"
)

// minorOf turns a CLI version ("0.1.3", "v1.2.0-rc.1") into major and minor.
// ok is false for dev builds and anything else without a release number:
// those pin nothing.
func minorOf(version string) (major, minor int, ok bool) {
	v := strings.TrimPrefix(version, "v")
	if buildinfo.IsDevVersion(v) { // pseudo-versions and modified trees are dev builds too
		return 0, 0, false
	}
	v, _, _ = strings.Cut(v, "-")
	v, _, _ = strings.Cut(v, "+")
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return 0, 0, false
	}
	maj, err1 := strconv.Atoi(parts[0])
	min, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || maj < 0 || min < 0 {
		return 0, 0, false
	}
	return maj, min, true
}

// pinned returns the argument that asks reg for name at the CLI's minor
// version, so the SDK speaks the same API as the server the CLI runs.
func pinned(reg Registry, name string, major, minor int) string {
	switch reg {
	case NPM:
		return fmt.Sprintf("%s@~%d.%d.0", name, major, minor)
	case PyPI:
		return fmt.Sprintf("%s>=%d.%d,<%d.%d", name, major, minor, major, minor+1)
	case Crates:
		return fmt.Sprintf("%s@%d.%d", name, major, minor)
	case GoMod:
		// A Go version query: the latest v0.1.x.
		return fmt.Sprintf("%s@v%d.%d", name, major, minor)
	}
	return name
}

// compatPin returns the argument that asks reg for a compatibility client:
// at least the version the snippets are checked against, and never the
// next major, whose API (or wire protocol) the server is not tested with.
func compatPin(reg Registry, e Entry) string {
	v := strings.TrimPrefix(e.Checked, "v")
	parts := strings.Split(v, ".")
	major, err := strconv.Atoi(parts[0])
	if err != nil || len(parts) < 2 {
		panic(fmt.Sprintf("packages.toml: %s@%s needs major.minor", e.Name, e.Checked)) // a build defect, caught by tests
	}
	switch reg {
	case NPM:
		return fmt.Sprintf("%s@^%s", e.Name, v)
	case PyPI:
		return fmt.Sprintf("%s>=%s.%s,<%d", e.Name, parts[0], parts[1], major+1)
	case Crates:
		return fmt.Sprintf("%s@%s.%s", e.Name, parts[0], parts[1])
	case GoMod:
		// The latest release of that major: Go version queries cannot say
		// "at least v1.17"; Go's minimal version selection keeps it ≥ what
		// go.mod already requires.
		return fmt.Sprintf("%s@v%d", e.Name, major)
	}
	return e.Name
}
