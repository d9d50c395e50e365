package workspace

import (
	"bytes"
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
	"loams.dev/cli/project"
)

// ManifestName is the project's manifest. loams owns only its [dev] table;
// the Loams server project plans the rest ([functions] …) as its app
// manifest, so every other byte is kept as it was.
const ManifestName = "loams.toml"

// maxManifest bounds what is read: a loams.toml is a few lines, and a
// symlink to /dev/zero must not fill memory.
const maxManifest = 1 << 20

// Binding is the [dev] table of a project's loams.toml.
type Binding struct {
	Path    string // the loams.toml; "" when the project has none
	Dir     string // the directory holding it
	Stack   string // [dev] stack
	Profile string // [dev] profile
	// Unknown lists the keys of [dev] loams does not know; they are kept.
	Unknown []string
}

// devKeys are the keys of [dev] loams reads and writes.
var devKeys = []string{"stack", "profile", "worktrees"} // worktrees: worktree.go

// FindManifest looks for loams.toml from dir up to the repository root
// (never $HOME or /, as project.Find). "" when there is none.
func FindManifest(dir, home string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for _, d := range project.UpToRepository(abs, home) {
		if _, err := os.Lstat(filepath.Join(d, ManifestName)); err == nil {
			return filepath.Join(d, ManifestName)
		}
	}
	return ""
}

// ReadManifest reads the [dev] table of the loams.toml at path. A file that
// does not parse is config_unparseable naming the line; a directory or a
// special file in its place is config_unreadable.
func ReadManifest(path string) (Binding, error) {
	b := Binding{Path: path, Dir: filepath.Dir(path)}
	data, err := readManifest(path)
	if err != nil {
		return b, err
	}
	var doc struct {
		Dev map[string]any `toml:"dev"`
	}
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return b, unparseable(path, err)
	}
	for k, v := range doc.Dev {
		s, isString := v.(string)
		switch {
		case !slices.Contains(devKeys, k):
			b.Unknown = append(b.Unknown, k)
			continue
		case !isString:
			return b, errs.New(errs.ConfigUnparseable, "write it as "+k+` = "NAME"`, "%s: [dev] %s must be a string", path, k).With("path", path)
		case k == "stack":
			if !config.StackName().MatchString(s) {
				return b, errs.New(errs.ConfigUnparseable, "use a lowercase letter, then up to 30 lowercase letters, digits or dashes",
					"%s: [dev] stack %q is not a stack name", path, s).With("path", path)
			}
			b.Stack = s
		case k == "profile":
			b.Profile = s
		}
	}
	slices.Sort(b.Unknown)
	return b, nil
}

// readManifest reads path (through a symlink) as safefile.ReadRegular
// does for agents' configs: a regular file under the size cap, never a
// blocking open of a FIFO.
func readManifest(path string) ([]byte, error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, safefile.Unreadable(path, err)
	}
	data, _, err := safefile.ReadRegular(target, path, maxManifest)
	return data, err
}

// unparseable names the file and line of a TOML error; the file is never
// rewritten.
func unparseable(path string, err error) error {
	e := errs.New(errs.ConfigUnparseable, "fix the TOML syntax of "+path+" by hand; loams does not rewrite a file it cannot parse",
		"%s does not parse: %v", path, err).With("path", path)
	var perr toml.ParseError
	if errors.As(err, &perr) {
		e.Message = fmt.Sprintf("%s:%d: %s", path, perr.Position.Line, perr.Message)
		e.With("line", perr.Position.Line)
	}
	return e.Wrap(err)
}

// Bind sets [dev] stack in dir's loams.toml, creating the file when there is
// none and editing the [dev] table in place otherwise: every other table,
// comment, blank line and key order stays byte for byte. It reports whether
// the file changed. A symlink leading out of dir, a read-only file and a
// file that does not parse are refused and left as they are.
func Bind(dir, stackName string) (path string, changed bool, err error) {
	path = filepath.Join(dir, ManifestName)
	old, err := readManifest(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return path, false, err
	default:
		if _, err := ReadManifest(path); err != nil {
			return path, false, err
		}
	}
	doc := setDevKey(old, "stack", stackName)
	if bytes.Equal(doc, old) {
		return path, false, nil
	}
	if err := safefile.WriteInside(dir, path, doc, safefile.Mode(path, 0o644)); err != nil {
		return path, false, err
	}
	return path, true, nil
}

// Unbind removes [dev] stack (stack delete of the bound stack keeps the
// rest of the file). It is not an error when there is nothing to remove.
func Unbind(path string) error {
	old, err := readManifest(path)
	if err != nil {
		return err
	}
	if _, err := ReadManifest(path); err != nil {
		return err
	}
	doc := removeDevKey(old, "stack")
	if bytes.Equal(doc, old) {
		return nil
	}
	return safefile.WriteInside(filepath.Dir(path), path, doc, safefile.Mode(path, 0o644))
}

// Header comment of a loams.toml loams creates.
const newManifest = "# loams.toml: this project's Loams settings. Commit it: it holds no key.\n" +
	"# `loams` reads [dev]; other tables are kept as you write them.\n"

// setDevKey sets key = "value" in [dev], by lines. The value is a stack
// or profile name (validated by the caller), so plain quoting is enough.
func setDevKey(doc []byte, key, value string) []byte {
	nl := "\n"
	if bytes.Contains(doc, []byte("\r\n")) {
		nl = "\r\n"
	}
	line := key + " = " + quote(value)
	if len(doc) == 0 {
		return []byte(newManifest + nl + "[dev]" + nl + line + nl)
	}
	lines := splitLines(doc)
	start, end, ok := devSpan(lines)
	if !ok {
		out := string(doc)
		if !strings.HasSuffix(out, "\n") {
			out += nl
		}
		return []byte(out + nl + "[dev]" + nl + line + nl)
	}
	for i := start + 1; i < end; i++ {
		if lineKey(lines[i]) == key {
			eol := lines[i][len(strings.TrimRight(lines[i], "\r\n")):]
			indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
			if c := trailingComment(lines[i]); c != "" {
				line += " " + c
			}
			lines[i] = indent + line + eol
			return []byte(strings.Join(lines, ""))
		}
	}
	// After the header (and before the table's trailing blank lines).
	at := end
	for at > start+1 && strings.TrimSpace(lines[at-1]) == "" {
		at--
	}
	if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
		lines[at-1] += nl
	}
	lines = slices.Insert(lines, at, line+nl)
	return []byte(strings.Join(lines, ""))
}

func removeDevKey(doc []byte, key string) []byte {
	lines := splitLines(doc)
	start, end, ok := devSpan(lines)
	if !ok {
		return doc
	}
	for i := start + 1; i < end; i++ {
		if lineKey(lines[i]) == key {
			return []byte(strings.Join(slices.Delete(lines, i, i+1), ""))
		}
	}
	return doc
}

func splitLines(doc []byte) []string {
	lines := strings.SplitAfter(string(doc), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// devSpan finds the [dev] table: its header line and the line after its
// last line (the next table header, or the end).
func devSpan(lines []string) (start, end int, ok bool) {
	start = -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "[") {
			continue
		}
		if start >= 0 {
			return start, i, true
		}
		if name, _, _ := strings.Cut(strings.TrimPrefix(t, "["), "]"); strings.TrimSpace(name) == "dev" && !strings.HasPrefix(t, "[[") {
			start = i
		}
	}
	return start, len(lines), start >= 0
}

// lineKey is the bare key a `key = value` line sets, "" for other lines.
func lineKey(l string) string {
	k, _, ok := strings.Cut(l, "=")
	if !ok {
		return ""
	}
	k = strings.TrimSpace(k)
	return strings.Trim(k, `"'`)
}

// trailingComment keeps a comment after the value (`stack = "a" # why`).
// Values loams writes hold no '#' (names only), so the first '#' after the
// closing quote starts the comment.
func trailingComment(l string) string {
	_, v, _ := strings.Cut(l, "=")
	v = strings.TrimSpace(v)
	if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
		if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
			v = v[end+2:]
		}
	}
	if i := strings.IndexByte(v, '#'); i >= 0 {
		return strings.TrimRight(v[i:], "\r\n")
	}
	return ""
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}
