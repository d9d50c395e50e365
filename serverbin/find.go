package serverbin

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/safefile"
)

// Finder looks for the server in the spec's order (server.md, "Finding
// it"). Its fields are everything discovery depends on, so tests build
// one over temp directories and never look at the real /usr/bin.
type Finder struct {
	Home     home.Home
	Getenv   func(string) string
	Explicit string // --server-binary
	Profile  string // the profile's server_binary
	// Self is the running CLI; a candidate that is the same file is skipped.
	Self string
	// Root is prefixed to the fixed system paths (/usr/bin/loams, Loams
	// Desktop's bundle). "" in a release build; tests point it at a temp dir.
	Root string
	// GOOS picks the platform's Desktop paths ("" = runtime.GOOS).
	GOOS string
}

// Candidate is one place a server may be, and what became of it.
type Candidate struct {
	Path           string  `json:"path"`
	Source         string  `json:"source"`
	Version        string  `json:"version"`
	IsServer       bool    `json:"is_server"`
	Used           bool    `json:"used"`
	SkippedBecause string  `json:"skipped_because"`
	Binary         *Binary `json:"-"`
	explicit       bool
	notCurrent     bool  // installed by `server install`, but another one is current
	unsafe         error // unsafe_permissions: another user could have chosen or changed it
}

// Source names, as `server list` shows them.
const (
	SourceFlag      = "--server-binary"
	SourceEnv       = "LOAMS_SERVER_BINARY"
	SourceProfile   = "profile server_binary"
	SourceInstalled = "loams server install"
	SourceServerCmd = "loams-server on PATH"
	SourcePath      = "loams on PATH"
	SourcePackage   = "package"
	SourceDesktop   = "Loams Desktop"
	SourceCargo     = "cargo install"
)

// Candidates lists every place in order, without probing. Explicit
// entries (1–3) come first; a path that does not exist is kept for the
// explicit ones (it is an error) and dropped for the others.
func (f *Finder) Candidates() []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	add := func(path, source string, explicit bool) *Candidate {
		if path == "" {
			return nil
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil
		}
		if !explicit && !isFile(abs) {
			return nil
		}
		key := abs
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			key = real
		}
		if seen[key] && !explicit {
			return nil // the same file reached another way: listed once, first place wins
		}
		seen[key] = true
		out = append(out, Candidate{Path: abs, Source: source, explicit: explicit})
		return &out[len(out)-1]
	}
	add(f.Explicit, SourceFlag, true)
	add(f.getenv("LOAMS_SERVER_BINARY"), SourceEnv, true)
	add(f.Profile, SourceProfile, true)
	add(Current(f.Home), SourceInstalled, false)
	for _, r := range Installed(f.Home) {
		if c := add(r.Path, SourceInstalled, false); c != nil {
			c.notCurrent = true
		}
	}
	for _, p := range onPath(f.getenv("PATH"), "loams-server") {
		add(p, SourceServerCmd, false)
	}
	for _, p := range onPath(f.getenv("PATH"), "loams") {
		add(p, SourcePath, false)
	}
	for _, p := range []string{"/usr/bin/loams", "/usr/local/bin/loams"} {
		add(f.fixed(p), SourcePackage, false)
	}
	for _, p := range f.desktopPaths() {
		add(p, SourceDesktop, false)
	}
	cargo := f.getenv("CARGO_HOME")
	if cargo == "" && f.getenv("HOME") != "" {
		cargo = filepath.Join(f.getenv("HOME"), ".cargo")
	}
	if cargo != "" {
		add(filepath.Join(cargo, "bin", "loams"), SourceCargo, false)
	}
	return out
}

// Find returns the first candidate that is a Loams server. An explicit
// path (1–3) is authoritative: missing, this CLI, or not a server is an
// error rather than a reason to look further.
func (f *Finder) Find(ctx context.Context) (*Binary, Candidate, error) {
	for _, c := range f.Candidates() {
		c = f.examine(ctx, c)
		if c.unsafe != nil && !c.notCurrent {
			return nil, c, c.unsafe
		}
		if c.explicit && !c.IsServer {
			return nil, c, f.explicitError(c)
		}
		if c.IsServer {
			return c.Binary, c, nil
		}
	}
	return nil, Candidate{}, NotFound()
}

// List examines every candidate and marks the one Find would use.
func (f *Finder) List(ctx context.Context) []Candidate {
	out := []Candidate{}
	used := false
	for _, c := range f.Candidates() {
		c = f.examine(ctx, c)
		switch {
		case used && c.SkippedBecause == "":
			c.SkippedBecause = "an earlier candidate is used"
		case !used && c.IsServer:
			c.Used, used = true, true
		case !used && c.explicit:
			used = true // an explicit path that fails stops the search; the error says why
		}
		out = append(out, c)
	}
	return out
}

// examine fills in what the candidate is: missing, this CLI, or the
// probe's answer.
func (f *Finder) examine(ctx context.Context, c Candidate) Candidate {
	if !isFile(c.Path) {
		c.SkippedBecause = "no such file"
		return c
	}
	if f.isSelf(c.Path) {
		c.SkippedBecause = "this is the loams CLI itself, not the server"
		return c
	}
	if err := f.checkTrusted(c); err != nil {
		c.SkippedBecause, c.unsafe = err.Error(), err
		return c
	}
	if c.notCurrent {
		c.SkippedBecause = "installed, not current (`loams server remove` deletes it)"
		if b, err := Probe(ctx, f.Home, c.Path); err == nil {
			c.Version = b.Version
		}
		return c
	}
	b, err := Probe(ctx, f.Home, c.Path)
	if err != nil {
		c.SkippedBecause = err.Error()
		return c
	}
	c.Binary, c.Version, c.IsServer = b, b.Version, b.IsServer
	if !b.IsServer {
		c.SkippedBecause = "not a Loams server: " + b.Why
	}
	return c
}

// checkTrusted refuses, before anything is run, a candidate another local
// user could have chosen: the profile's server_binary when config.toml (or
// LOAMS_HOME) is theirs to write, the installed server when servers/current
// is, and any binary inside LOAMS_HOME (servers/) whose file or directories
// are (safefile.CheckInHome, the one rule).
func (f *Finder) checkTrusted(c Candidate) error {
	const stakes = "loams will not run the server it names"
	switch c.Source {
	case SourceProfile:
		if err := safefile.CheckInHome(f.Home.Dir, f.Home.Config(), stakes); err != nil {
			return err
		}
	case SourceInstalled:
		if !c.notCurrent {
			if err := safefile.CheckInHome(f.Home.Dir, currentFile(f.Home), stakes); err != nil {
				return err
			}
		}
	}
	return safefile.CheckInHome(f.Home.Dir, c.Path, "loams will not run it")
}

func (f *Finder) explicitError(c Candidate) error {
	switch {
	case !isFile(c.Path):
		return NotFound().With("path", c.Path).With("from", c.Source)
	case f.isSelf(c.Path):
		return errs.New(errs.Usage, "point "+c.Source+" at the Loams server binary (see `loams server list`), or run `loams server install`",
			"%s (from %s) is the loams CLI; the server is a different program", c.Path, c.Source).With("path", c.Path).With("from", c.Source).
			ForAgent(errs.AskUser("loams server install") + " and to point " + c.Source + " at the server")
	}
	return errs.New(errs.ServerBinaryNotFound, "point "+c.Source+" at the Loams server binary, or run `loams server install`",
		"%s (from %s) is not a Loams server: %s", c.Path, c.Source, strings.TrimPrefix(c.SkippedBecause, "not a Loams server: ")).
		With("path", c.Path).With("from", c.Source).
		ForAgent(errs.AskUser("loams server install") + " and to point " + c.Source + " at the server")
}

// NotFound is server_binary_not_found with the ways forward that work
// today (the release channel has nothing published yet). An agent cannot
// install a server: it asks the user.
func NotFound() *errs.Error {
	return errs.New(errs.ServerBinaryNotFound, WaysToGetServer+"; `loams server list` shows where loams looked",
		"no Loams server binary found").
		ForAgent(errs.AskUser("loams configure set server_binary PATH") +
			" for a Loams server they have, or to install one (its .deb/.rpm package, or `cargo install`); tools never download; then call stack_create again")
}

// isSelf reports whether path is the running CLI after resolving symlinks.
func (f *Finder) isSelf(path string) bool {
	if f.Self == "" {
		return false
	}
	a, err1 := os.Stat(path)
	b, err2 := os.Stat(f.Self)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

func (f *Finder) getenv(k string) string {
	if f.Getenv == nil {
		return ""
	}
	return f.Getenv(k)
}

// fixed places a system path under Root.
func (f *Finder) fixed(p string) string {
	if f.Root == "" {
		return p
	}
	return filepath.Join(f.Root, p)
}

// desktopPaths are Loams Desktop's bundled engine, then its newest runtime
// copy (runtime/<version>/loams under the app's user-data directory).
func (f *Finder) desktopPaths() []string {
	goos := f.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	homeDir := f.getenv("HOME")
	var bundled, userData string
	switch goos {
	case "darwin":
		bundled = f.fixed("/Applications/Loams Desktop.app/Contents/Resources/bin/loams")
		if homeDir != "" {
			userData = filepath.Join(homeDir, "Library", "Application Support", "Loams Desktop")
		}
	case "linux":
		bundled = f.fixed("/opt/Loams Desktop/resources/bin/loams")
		if cfg := f.getenv("XDG_CONFIG_HOME"); cfg != "" {
			userData = filepath.Join(cfg, "Loams Desktop")
		} else if homeDir != "" {
			userData = filepath.Join(homeDir, ".config", "Loams Desktop")
		}
	}
	out := []string{bundled}
	if userData != "" {
		if p := newestRuntime(filepath.Join(userData, "runtime")); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// newestRuntime picks runtime/<version>/loams with the highest version.
func newestRuntime(dir string) string {
	entries, _ := os.ReadDir(dir)
	var versions []string
	for _, e := range entries {
		if _, ok := ParseVersion(e.Name()); ok && e.IsDir() && isFile(filepath.Join(dir, e.Name(), "loams")) {
			versions = append(versions, e.Name())
		}
	}
	if len(versions) == 0 {
		return ""
	}
	slices.SortFunc(versions, func(a, b string) int {
		va, _ := ParseVersion(a)
		vb, _ := ParseVersion(b)
		return va.Compare(vb)
	})
	return filepath.Join(dir, versions[len(versions)-1], "loams")
}

// onPath lists every executable named name in PATH order.
func onPath(path, name string) []string {
	var out []string
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			out = append(out, p)
		}
	}
	return out
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// NewFinder is the finder of the running CLI: Self is this executable and
// Root is "" (tests' builds may move it, seam_loamstest.go).
func NewFinder(h home.Home, getenv func(string) string, explicit, profile string) *Finder {
	self, _ := os.Executable()
	return &Finder{Home: h, Getenv: getenv, Explicit: explicit, Profile: profile, Self: self, Root: TestRoot(getenv)}
}

// Exists reports whether p is a file (not a directory).
func Exists(p string) bool { return isFile(p) }
