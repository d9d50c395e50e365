package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
	"loams.dev/cli/internal/tomlkey"
)

// Bind sets [dev] stack in dir's loams.toml, creating the file when there is
// none and editing the [dev] table in place otherwise: every other table,
// comment, blank line and key order stays byte for byte. It reports whether
// the file changed. A symlink leading out of dir, a read-only file, a file
// another user owns or others may write, and a file that does not parse
// are refused and left as they are.
func Bind(dir, stackName string) (path string, changed bool, err error) {
	return setDev(dir, "stack", stackName)
}

// setDev sets one [dev] key in dir's loams.toml, with Bind's rules.
func setDev(dir, key, value string) (path string, changed bool, err error) {
	path = filepath.Join(dir, ManifestName)
	old, err := readManifest(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return path, false, err
	default:
		if why := untrusted(path); why != "" {
			return path, false, errs.New(errs.UnsafePermissions, fixFor(path),
				"%s %s; loams does not edit it", path, why).With("path", path)
		}
		if _, err := ReadManifest(path); err != nil {
			return path, false, err
		}
	}
	doc, err := setDevKey(path, old, key, value)
	if err != nil || bytes.Equal(doc, old) {
		return path, false, err
	}
	if err := safefile.WriteInside(dir, path, doc, safefile.Mode(path, 0o644)); err != nil {
		return path, false, writeError(path, err)
	}
	return path, true, nil
}

// writeError turns a symlink that leaves the project into its coded error.
func writeError(path string, err error) error {
	if errors.Is(err, safefile.ErrOutside) {
		return outsideProject(path, err)
	}
	return err
}

// Header comment of a loams.toml loams creates.
const newManifest = "# loams.toml: this project's Loams settings. Commit it: it holds no key.\n" +
	"# `loams` reads [dev]; other tables are kept as you write them.\n"

// setDevKey sets key = "value" in [dev], by lines, and checks the result
// decodes to the same document with only that value changed: the line
// editor never writes a file it misread.
func setDevKey(path string, doc []byte, key, value string) ([]byte, error) {
	out, err := setDevLine(doc, key, value)
	if err != nil {
		return nil, unparseable(path, err)
	}
	same, got, err := tomlkey.SameBut(doc, out, "dev", key)
	if err != nil {
		return nil, unparseable(path, fmt.Errorf("setting [dev] %s would not give a valid file: %w", key, err))
	}
	if !same || got != value {
		return nil, unparseable(path, fmt.Errorf("[dev] is written in a way loams cannot edit by lines (inline or dotted): set %s = %q by hand", key, value))
	}
	return out, nil
}

func setDevLine(doc []byte, key, value string) ([]byte, error) {
	nl := "\n"
	if bytes.Contains(doc, []byte("\r\n")) {
		nl = "\r\n"
	}
	line := tomlkey.Key(key) + " = " + tomlkey.String(value)
	header := tomlkey.Table("dev")
	if len(doc) == 0 {
		return []byte(newManifest + nl + header + nl + line + nl), nil
	}
	lines, err := scanLines(doc)
	if err != nil {
		return nil, err
	}
	texts := textsOf(lines)
	if i := devLine(lines, key) - 1; i >= 0 { // in [dev], or a top-level dev.key
		stop := valueStop(lines, i)
		l := texts[i]
		if len(lines[i].Key) == 2 {
			line = tomlkey.Key("dev") + "." + line
		}
		last := texts[stop-1]
		eol := last[len(strings.TrimRight(last, "\r\n")):]
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if c := trailingComment(l); c != "" && stop == i+1 {
			line += " " + c
		}
		texts = slices.Replace(texts, i, stop, indent+line+eol)
		return []byte(strings.Join(texts, "")), nil
	}
	start, end, ok := devSpan(lines)
	if !ok {
		if at := lastTopDevKey(lines); at >= 0 {
			// [dev] is written as dotted keys (dev.profile = …): a [dev]
			// header after them is a second definition strict TOML parsers
			// (the server's among them) refuse, so add one more dotted key.
			stop := valueStop(lines, at)
			if !strings.HasSuffix(texts[stop-1], "\n") {
				texts[stop-1] += nl
			}
			texts = slices.Insert(texts, stop, tomlkey.Key("dev")+"."+line+nl)
			return []byte(strings.Join(texts, "")), nil
		}
		out := string(doc)
		if !strings.HasSuffix(out, "\n") {
			out += nl
		}
		return []byte(out + nl + header + nl + line + nl), nil
	}
	// After the table's last line that is not blank.
	at := end
	for at > start+1 && strings.TrimSpace(texts[at-1]) == "" {
		at--
	}
	if at > 0 && !strings.HasSuffix(texts[at-1], "\n") {
		texts[at-1] += nl
	}
	texts = slices.Insert(texts, at, line+nl)
	return []byte(strings.Join(texts, "")), nil
}

// valueStop is the line after the value set on line i: a multi-line
// string or array runs on over the lines that do not start at the top.
func valueStop(lines []tomlkey.Line, i int) int {
	stop := i + 1
	for stop < len(lines) && !lines[stop].Top {
		stop++
	}
	return stop
}

// lastTopDevKey is the last top-level `dev.… = ` line before the first
// table header, -1 when there is none.
func lastTopDevKey(lines []tomlkey.Line) int {
	last := -1
	for i, l := range lines {
		if l.Header != nil {
			break
		}
		if len(l.Key) >= 2 && l.Key[0] == "dev" {
			last = i
		}
	}
	return last
}

func scanLines(doc []byte) ([]tomlkey.Line, error) {
	return tomlkey.Scan(doc, tomlkey.MaxDepth)
}

func textsOf(lines []tomlkey.Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// devSpan finds the [dev] table: its header line and the line after its
// last line (the next table header, or the end). Headers are those TOML
// sees: a `[dev]` line inside a multi-line string is the user's text.
func devSpan(lines []tomlkey.Line) (start, end int, ok bool) {
	start = -1
	for i, l := range lines {
		if l.Header == nil {
			continue
		}
		if start >= 0 {
			return start, i, true
		}
		if !l.Array && slices.Equal(l.Header, []string{"dev"}) {
			start = i
		}
	}
	return start, len(lines), start >= 0
}

// trailingComment keeps a comment after the value (`stack = "a" # why`).
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
