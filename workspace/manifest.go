package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
	"loams.dev/cli/internal/tomlkey"
	"loams.dev/cli/project"
)

// ManifestName is the project's manifest. loams owns only its [dev] table;
// the Loams server project plans the rest ([functions] …) as its app
// manifest, so every other byte is kept as it was.
const ManifestName = "loams.toml"

// maxManifest bounds what is read (spec project.md): a loams.toml is a
// few lines, a symlink to /dev/zero must not fill memory, and a decoder
// must never see a file it would spend seconds on.
const maxManifest = 256 << 10

// Binding is the [dev] table of a project's loams.toml.
type Binding struct {
	Path    string // the loams.toml; "" when the project has none
	Dir     string // the directory holding it
	Stack   string // [dev] stack
	Profile string // [dev] profile
	// Worktrees is [dev] worktrees: "clone" gives each linked git
	// worktree a stack of its own (worktree.go); anything else shares.
	Worktrees string
	// Unknown lists the keys of [dev] loams does not know; they are kept.
	Unknown []string
	// Ignored is a loams.toml found but not read (another user's, or
	// writable by others); the binding is then empty. why and fix say why
	// and the command that makes it the user's.
	Ignored  string
	why, fix string
}

// LoadBinding is the binding of the project found from dir: the zero
// Binding when there is no loams.toml, or when the one found belongs to
// another user or others may write it (then Ignored says so, and Warnings
// says it once).
func LoadBinding(dir, home string) (Binding, error) {
	p := FindManifest(dir, home)
	if p == "" {
		return Binding{}, nil
	}
	if why := untrusted(p); why != "" {
		return Binding{Ignored: p, why: why, fix: fixFor(p)}, nil
	}
	return ReadManifest(p)
}

// Warnings is what a person should hear once about this binding.
func (b Binding) Warnings() []string {
	var out []string
	if b.Ignored != "" {
		out = append(out, fmt.Sprintf("ignoring %s: it %s, so its [dev] chooses nothing; %s", b.Ignored, b.why, b.fix))
	}
	if len(b.Unknown) > 0 {
		out = append(out, fmt.Sprintf("%s: [dev] has keys loams does not know (kept as they are): %s", b.Path, strings.Join(b.Unknown, ", ")))
	}
	return out
}

// devKeys are the keys of [dev] loams reads and writes.
var devKeys = []string{"stack", "profile", "worktrees"} // worktrees: worktree.go

// FindManifest looks for loams.toml from dir up to the project root: the
// first directory holding .git or a project marker. It never looks in or
// above $HOME when dir is inside it, nor in /, so a loams.toml planted in a
// shared directory above a project chooses nothing. "" when there is none.
func FindManifest(dir, home string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	abs, home = physicalUnderHome(abs, home)
	for _, d := range project.Ancestors(abs, home) {
		if _, err := os.Lstat(filepath.Join(d, ManifestName)); err == nil {
			return filepath.Join(d, ManifestName)
		}
		if project.IsRoot(d) {
			return ""
		}
	}
	return ""
}

// physicalUnderHome is dir and home as the walk up must compare them: when
// $HOME is a symlink (/home → /usr/home) and dir its physical path, or the
// other way round, both resolved, so the walk still stops at $HOME.
func physicalUnderHome(dir, home string) (string, string) {
	if home == "" || safefile.Inside(filepath.Clean(home), dir) {
		return dir, home
	}
	realHome, err1 := filepath.EvalSymlinks(home)
	realDir, err2 := filepath.EvalSymlinks(dir)
	if err1 != nil || err2 != nil || !safefile.Inside(realHome, realDir) {
		return dir, home
	}
	return realDir, realHome
}

// ReadManifest reads the [dev] table of the loams.toml at path. A file that
// does not parse, is too large or too deep, or names a stack or profile
// that is not a name is config_unparseable naming the line; a directory or
// a special file in its place is config_unreadable; a symlink out of its
// directory is path_outside_project.
func ReadManifest(path string) (Binding, error) {
	data, err := readManifest(path)
	if err != nil {
		return Binding{Path: path, Dir: filepath.Dir(path)}, err
	}
	return parseManifest(path, data)
}

// parseManifest is ReadManifest's reading of data, the bytes of path.
func parseManifest(path string, data []byte) (Binding, error) {
	b := Binding{Path: path, Dir: filepath.Dir(path)}
	if len(data) > maxManifest {
		return b, tooLarge(path)
	}
	lines, err := tomlkey.Scan(data, tomlkey.MaxDepth)
	if err != nil {
		return b, unparseable(path, err)
	}
	// A map, not a struct: the decoder matches struct fields without case,
	// and [DEV] is not the table TOML (and the editor, and the server) call
	// dev.
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return b, unparseable(path, err)
	}
	dev, isTable := doc["dev"].(map[string]any)
	if doc["dev"] != nil && !isTable {
		return b, errs.New(errs.ConfigUnparseable, "write it as a [dev] table; loams does not rewrite "+path,
			"%s: dev is not a table", path).With("path", path).With("key", "dev")
	}
	for k, v := range dev {
		s, isString := v.(string)
		switch {
		case !slices.Contains(devKeys, k):
			b.Unknown = append(b.Unknown, k)
			continue
		case !isString:
			return b, badDevValue(path, lines, k, "write it as "+k+` = "NAME"`, "must be a string")
		case k == "stack":
			if !config.StackName().MatchString(s) {
				return b, badDevValue(path, lines, k, "use a lowercase letter, then up to 30 lowercase letters, digits or dashes",
					fmt.Sprintf("%q is not a stack name", s))
			}
			b.Stack = s
		case k == "profile":
			if !config.ProfileName().MatchString(s) {
				return b, badDevValue(path, lines, k, "use a profile name: a letter or digit, then up to 62 letters, digits, - or _",
					fmt.Sprintf("%q is not a profile name", s))
			}
			b.Profile = s
		case k == "worktrees":
			b.Worktrees = s
		}
	}
	slices.Sort(b.Unknown)
	return b, nil
}

// badDevValue is config_unparseable for [dev] key, naming file, line and key.
func badDevValue(path string, lines []tomlkey.Line, key, hint, what string) error {
	line := devLine(lines, key)
	e := errs.New(errs.ConfigUnparseable, hint+"; loams does not rewrite "+path, "%s:%d: [dev] %s %s", path, line, key, what).
		With("path", path).With("key", "dev."+key)
	if line > 0 {
		e.With("line", line)
	} else {
		e.Message = fmt.Sprintf("%s: [dev] %s %s", path, key, what)
	}
	return e
}

// devLine is the 1-based line setting [dev] key (in the table or as a
// dotted `dev.key`), 0 when the scan cannot tell.
func devLine(lines []tomlkey.Line, key string) int {
	var table []string
	for i, l := range lines {
		if l.Header != nil {
			table = l.Header
			if l.Array {
				table = nil
			}
			continue
		}
		if l.Key != nil && slices.Equal(append(slices.Clone(table), l.Key...), []string{"dev", key}) {
			return i + 1
		}
	}
	return 0
}

// readManifest reads path as safefile.ReadRegular does for agents'
// configs (a regular file under the size cap, never a blocking open of a
// FIFO), through a symlink only when it stays in the project directory.
func readManifest(path string) ([]byte, error) {
	target, err := safefile.ResolveInside(filepath.Dir(path), path)
	switch {
	case errors.Is(err, safefile.ErrOutside):
		return nil, outsideProject(path, err)
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case err != nil:
		return nil, safefile.Unreadable(path, err)
	}
	if fi, err := os.Stat(target); err == nil && fi.Mode().IsRegular() && fi.Size() > maxManifest {
		return nil, tooLarge(path)
	}
	data, _, err := safefile.ReadRegular(target, path, maxManifest)
	return data, err
}

func tooLarge(path string) error {
	return errs.New(errs.ConfigUnparseable, "a loams.toml is a few lines: check what this file is; loams does not read it",
		"%s is larger than %d KiB", path, maxManifest>>10).With("path", path)
}

// outsideProject refuses a loams.toml that is a symlink out of its
// project: the repository would choose a file of the user's to read or
// rewrite.
func outsideProject(path string, err error) error {
	dir := filepath.Dir(path)
	return errs.New(errs.PathOutsideProject,
		"replace the symlink "+path+" with a file of the project",
		"%s is a symlink that leads outside the project %s; loams neither reads nor writes through it", path, dir).
		With("path", path).With("project_dir", dir).Wrap(err).
		ForAgent("ask the user to replace the symlink " + path + " with a file of the project")
}

// unparseable names the file and line of a TOML error; the file is never
// rewritten.
func unparseable(path string, err error) error {
	e := errs.New(errs.ConfigUnparseable, "fix the TOML syntax of "+path+" by hand; loams does not rewrite a file it cannot parse",
		"%s does not parse: %v", path, err).With("path", path)
	var perr toml.ParseError
	var derr *tomlkey.LimitError
	switch {
	case errors.As(err, &perr):
		e.Message = fmt.Sprintf("%s:%d: %s", path, perr.Position.Line, perr.Message)
		e.With("line", perr.Position.Line)
	case errors.As(err, &derr):
		e.Message = fmt.Sprintf("%s:%s; loams does not read it", path, strings.TrimPrefix(derr.Error(), "line "))
		e.With("line", derr.Line)
	}
	return e.Wrap(err)
}
