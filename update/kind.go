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
	GoBuild  Kind = "go"       // a Go build of a release tag (a clone at vX.Y.Z; later `go install Module@vX.Y.Z`)
	Dev      Kind = "dev"      // built from a clone: nothing to upgrade to
)

// Module is the path `go install` takes (go.mod's module + cmd/loams).
// The module proxy does not serve loams.dev/cli yet, so no hint names
// `go install Module@…`: a Go build is rebuilt from a clone (README,
// Install), until the path is served.
const Module = "loams.dev/cli/cmd/loams"

// Repository is the clone a Go build is made from.
const Repository = "https://github.com/ostrium-labs/loams"

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

// UpgradeCommand is what upgrades an install of kind to version; nil for
// a Go build, whose clone is the user's: loams cannot rebuild it for them.
func UpgradeCommand(kind Kind, version string) []string {
	switch kind {
	case Homebrew:
		return []string{"brew", "upgrade", "--cask", "loams"}
	case GoBuild:
		return nil
	}
	return []string{"loams", "update"}
}

// UpgradeHint is how a person upgrades an install of kind to version: the
// command to run, or for a Go build the lines that work in their clone
// today (version "": the newest release tag).
func UpgradeHint(kind Kind, version string) string {
	if kind != GoBuild {
		return "run `" + strings.Join(UpgradeCommand(kind, version), " ") + "`"
	}
	return "in your clone of loams run `" + CloneBuild(version) + "` (`go install " + Module + "@…` waits for the module proxy to serve loams.dev/cli)"
}

// CloneBuild is the command line that builds version (a release tag; ""
// for the newest) in an existing clone of Repository.
func CloneBuild(version string) string {
	tag := "$(git describe --tags --abbrev=0 origin/HEAD)"
	if version != "" {
		tag = "v" + strings.TrimPrefix(version, "v")
	}
	return "git fetch --tags && git checkout " + tag + " && go install ./cmd/loams"
}
