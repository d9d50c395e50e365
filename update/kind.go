package update

import (
	"path/filepath"
	"strings"

	"loams.dev/cli/internal/buildinfo"
)

// Kind is how this loams was installed, which decides how it is upgraded.
type Kind string

// The kinds of install.
const (
	Archive  Kind = "archive"  // a release archive: `loams update` replaces it
	Homebrew Kind = "homebrew" // brew owns the file
	GoBuild  Kind = "go"       // `go install loams.dev/cli/cmd/loams@vX.Y.Z`
	Dev      Kind = "dev"      // built from a clone: nothing to upgrade to
)

// Module is the path `go install` takes (go.mod's module + cmd/loams).
const Module = "loams.dev/cli/cmd/loams"

// KindOf tells how the binary at exe (symlinks resolved) was installed.
func KindOf(exe string, info buildinfo.Info) Kind {
	if info.IsDev() {
		return Dev
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	slashed := filepath.ToSlash(exe)
	if strings.Contains(slashed, "/Caskroom/") || strings.Contains(slashed, "/Cellar/") {
		return Homebrew
	}
	if !buildinfo.Stamped() {
		return GoBuild
	}
	return Archive
}

// UpgradeCommand is what upgrades an install of kind to version.
func UpgradeCommand(kind Kind, version string) []string {
	switch kind {
	case Homebrew:
		return []string{"brew", "upgrade", "--cask", "loams"}
	case GoBuild:
		v := "latest"
		if version != "" {
			v = "v" + strings.TrimPrefix(version, "v")
		}
		return []string{"go", "install", Module + "@" + v}
	}
	return []string{"loams", "update"}
}
