// Package buildinfo says which loams this is: the version injected by
// goreleaser's -ldflags, else the module version `go install` recorded,
// else "dev".
package buildinfo

import (
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Set with -ldflags "-X loams.dev/cli/internal/buildinfo.version=…".
var (
	version = ""
	commit  = ""
	date    = ""
)

// Info describes the running binary.
type Info struct {
	Version string
	Commit  string
	BuiltAt string
	OS      string
	Arch    string
	Go      string
}

// Get reads the build information once per call; it is cheap.
func Get() Info {
	i := Info{Version: version, Commit: commit, BuiltAt: date,
		OS: runtime.GOOS, Arch: runtime.GOARCH, Go: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if i.Commit == "" {
					i.Commit = s.Value
				}
			case "vcs.time":
				if i.BuiltAt == "" {
					i.BuiltAt = s.Value
				}
			}
		}
	}
	i.Version = strings.TrimPrefix(i.Version, "v")
	if i.Version == "" {
		i.Version = "dev"
	}
	if len(i.Commit) > 12 {
		i.Commit = i.Commit[:12]
	}
	return i
}

// IsDev reports whether this build has no release version (pins nothing).
func (i Info) IsDev() bool { return IsDevVersion(i.Version) }

// IsDevVersion reports whether v names no release: "dev" (no version
// stamped, as with -buildvcs=false), a Go pseudo-version (what `go build`
// or `go install ./cmd/loams` in a clone stamps: 0.0.0-20261203160755-
// bb193b4941e7 with no tag before it, 0.4.1-0.2026…-… after v0.4.0), or
// any build of a modified tree (+dirty).
func IsDevVersion(v string) bool {
	v = strings.TrimPrefix(v, "v")
	return v == "" || v == "dev" || strings.HasSuffix(v, "+dirty") || pseudo().MatchString(v)
}

var pseudo = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-.]\d{14}-[0-9a-f]{12}$`) })

// Stamped reports whether the version came from -ldflags (a release
// archive or package built by goreleaser) rather than from the module
// version `go install …@vX.Y.Z` records: `loams update` replaces the
// first kind of binary, and tells the second to run `go install` again.
func Stamped() bool { return version != "" }
