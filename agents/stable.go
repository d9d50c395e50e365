package agents

import (
	"path/filepath"
	"regexp"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
)

// checkStable refuses to register a binary that will vanish: `go run` and
// `go test` build into a go-build<digits> directory (under the temporary
// directory or $GOTMPDIR) or the build cache, and an agent entry naming
// one breaks at the next clean. Nothing else is "temporary": containers
// and CI put HOME, GOPATH and GOBIN under /tmp, and `go install` there
// gives a binary as lasting as any.
func (e Env) checkStable(exe string) error {
	if exe == "" || !e.temporary(exe) {
		return nil
	}
	return errs.New(errs.Usage, "install it (`go install loams.dev/cli/cmd/loams@latest`, or `go install ./cmd/loams` in a clone: either puts it in $(go env GOPATH)/bin, which is never temporary; or a release package) and run `loams mcp install` with that binary; or pass --allow-temporary-binary to register this one anyway",
		"%s is a go run/go test build in the Go build cache: an agent entry naming it stops working when the cache is cleaned", exe).With("executable", exe)
}

// goBuildDir is the name `go run` and `go test` give their work directory.
var goBuildDir = regexp.MustCompile(`^go-build[0-9]+$`)

func (e Env) temporary(exe string) bool {
	exe = resolve(exe)
	for _, dir := range e.installDirs() {
		if safefile.Inside(resolve(dir), exe) {
			return false // GOBIN, GOPATH/bin, a package manager's prefix: wherever they lie
		}
	}
	for _, part := range strings.Split(filepath.ToSlash(exe), "/") {
		if goBuildDir.MatchString(part) {
			return true
		}
	}
	cache := e.goCache()
	return cache != "" && safefile.Inside(resolve(cache), exe)
}

// installDirs are where installers put binaries to keep.
func (e Env) installDirs() []string {
	var dirs []string
	if b := e.Getenv("GOBIN"); b != "" {
		dirs = append(dirs, b)
	}
	gopath := e.Getenv("GOPATH")
	if gopath == "" && e.home() != "" {
		gopath = e.homeJoin("go")
	}
	for _, p := range filepath.SplitList(gopath) {
		if p != "" {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	if p := e.Getenv("HOMEBREW_PREFIX"); p != "" {
		dirs = append(dirs, p)
	}
	if h := e.home(); h != "" {
		dirs = append(dirs, e.homeJoin(".local", "bin"), e.homeJoin(".cargo", "bin"), e.homeJoin(".nix-profile"))
	}
	return append(dirs, "/usr/bin", "/usr/local", "/opt/homebrew", "/home/linuxbrew/.linuxbrew", "/nix/store", "/snap")
}

// goCache is $GOCACHE, else Go's default (os.UserCacheDir()/go-build,
// computed from Env so tests can move it).
func (e Env) goCache() string {
	if c := e.Getenv("GOCACHE"); c != "" {
		return c
	}
	var base string
	switch e.goos() {
	case "windows":
		base = e.Getenv("LocalAppData")
	case "darwin", "ios":
		if e.home() != "" {
			base = e.homeJoin("Library", "Caches")
		}
	default:
		base = e.Getenv("XDG_CACHE_HOME")
		if base == "" && e.home() != "" {
			base = e.homeJoin(".cache")
		}
	}
	if base == "" {
		return ""
	}
	return filepath.Join(base, "go-build")
}

func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
