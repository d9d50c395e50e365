package tomlkey

import (
	"fmt"
	"strings"
)

// MaxDepth is how deep the TOML files loams reads may nest: theirs are a
// few tables deep, and a decoder takes seconds on thousands of levels.
const MaxDepth = 32

// Line is one line of a TOML document as a line editor needs to see it.
type Line struct {
	Text string // the line with its ending
	// Top is true when the line starts outside any string, array or inline
	// table: only such a line can be a table header or a key of a table.
	// A `[dev]` line inside a """ string is not Top.
	Top bool
	// Header holds the keys of a [table] or [[array]] header line; nil for
	// any other line.
	Header []string
	Array  bool // the header is [[…]]
	// Key holds the dotted key a Top `key = value` line sets; nil otherwise.
	Key []string
}

// MaxNodes bounds the keys, tables, arrays and inline tables of a file
// loams reads: the decoder's cost grows with them faster than with bytes
// (256 KiB of keys nested 31 deep took it seconds), and loams's files hold
// a few dozen.
const MaxNodes = 4096

// LimitError is a document nested deeper than the limit, or holding more
// than MaxNodes keys and tables: refused before a decoder spends seconds
// on it.
type LimitError struct {
	Line  int
	Limit int
	Nodes bool // the node count, not the depth, went over
}

func (e *LimitError) Error() string {
	if e.Nodes {
		return fmt.Sprintf("line %d: more than %d keys, tables and arrays", e.Line, e.Limit)
	}
	return fmt.Sprintf("line %d: nested deeper than %d levels", e.Line, e.Limit)
}

// Scan splits doc into lines and finds its headers and keys, in one pass
// that knows strings (multi-line ones included), comments, arrays and
// inline tables. Nesting (arrays, inline tables, a header's or key's dotted
// parts) deeper than maxDepth, or more than MaxNodes keys, tables, arrays
// and inline tables, is a *LimitError. Scan does not validate
// TOML: a decoder does that, once Scan said the file is small enough.
func Scan(doc []byte, maxDepth int) ([]Line, error) {
	return scan(doc, maxDepth, MaxNodes)
}

// Lines is Scan without limits, for a document a decoder has already
// accepted (a user's agent config: loams edits it, it does not refuse it
// for being large).
func Lines(doc []byte) []Line {
	lines, _ := scan(doc, -1, -1)
	return lines
}

// bom is the byte order mark TOML decoders skip at the start of a file; a
// `[dev]` right after it is still the first line's header.
const bom = "\xef\xbb\xbf"

func scan(doc []byte, maxDepth, maxNodes int) ([]Line, error) {
	if maxDepth < 0 {
		maxDepth = int(^uint(0) >> 1)
	}
	s := string(doc)
	var lines []Line
	cur := Line{Top: true}
	start, depth := 0, 0
	blank := true // only blanks so far on this line: kept, not recomputed, so a long line stays linear
	nodes := 0
	tooDeep := func() error { return &LimitError{Line: len(lines) + 1, Limit: maxDepth} }
	node := func() error {
		if nodes++; maxNodes >= 0 && nodes > maxNodes {
			return &LimitError{Line: len(lines) + 1, Limit: maxNodes, Nodes: true}
		}
		return nil
	}
	endLine := func(end int) {
		cur.Text = s[start:end]
		lines = append(lines, cur)
		start, cur, blank = end, Line{Top: depth == 0}, true
	}
	i := 0
	if strings.HasPrefix(s, bom) {
		i = len(bom)
	}
	for i < len(s) {
		c := s[i]
		lineStart := cur.Top && depth == 0 && cur.Key == nil && cur.Header == nil && blank
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			blank = false
		}
		switch {
		case c == '\n':
			i++
			endLine(i)
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case lineStart && c == '[':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s)
			} else {
				end += i
			}
			keys, array := parseHeader(s[i:end])
			if len(keys) > maxDepth {
				return nil, tooDeep()
			}
			if keys == nil { // not a header TOML knows: let the decoder say so
				i = end
				continue
			}
			for range keys {
				if err := node(); err != nil {
					return nil, err
				}
			}
			cur.Header, cur.Array = keys, array
			i = end
		case lineStart && c != ' ' && c != '\t' && c != '\r':
			keys, rest, ok := ParseKey(s[i:])
			if !ok || !strings.HasPrefix(strings.TrimLeft(rest, " \t"), "=") {
				// Not a key the scan can read: this byte is scanned again
				// as any other (blank is now false), so a quote opening the
				// line is still a string and a `[` inside it opens nothing.
				continue
			}
			if len(keys) > maxDepth {
				return nil, tooDeep()
			}
			for range keys {
				if err := node(); err != nil {
					return nil, err
				}
			}
			cur.Key = keys
			i = len(s) - len(strings.TrimLeft(rest, " \t")) + 1 // past the '='
		case c == '"' || c == '\'':
			end := stringEnd(s, i)
			for j := i; j < end; j++ {
				if s[j] == '\n' {
					endLine(j + 1)
					cur.Top = false
				}
			}
			i = end
		case c == '[' || c == '{' || c == '=' && depth > 0: // a value that nests, or an inline table's key
			if c != '=' {
				if depth++; depth > maxDepth {
					return nil, tooDeep()
				}
			}
			if err := node(); err != nil {
				return nil, err
			}
			i++
		case c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			i++
		default:
			i++
		}
	}
	if start < len(s) {
		endLine(len(s))
	}
	return lines, nil
}

// stringEnd is the offset just past the string opening at s[i] (basic,
// literal, or either multi-line kind); an unterminated string runs to the
// end of its line (or of the document, for a multi-line one).
func stringEnd(s string, i int) int {
	q := s[i]
	if strings.HasPrefix(s[i:], strings.Repeat(string(q), 3)) {
		for j := i + 3; j < len(s); j++ {
			switch {
			case q == '"' && s[j] == '\\':
				j++
			case s[j] == q && strings.HasPrefix(s[j:], strings.Repeat(string(q), 3)):
				// Up to two more quotes may belong to the content: """a""""" ends last.
				end := j + 3
				for end < len(s) && s[end] == q && end < j+5 {
					end++
				}
				return end
			}
		}
		return len(s)
	}
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\n':
			return j
		case q == '"' && s[j] == '\\':
			j++
		case s[j] == q:
			return j + 1
		}
	}
	return len(s)
}

// parseHeader reads `[a.b]` or `[[a.b]]` (and a trailing comment); nil
// when line is not a well-formed header.
func parseHeader(line string) (keys []string, array bool) {
	s := strings.TrimRight(line, "\r")
	array = strings.HasPrefix(s, "[[")
	if array {
		s = s[2:]
	} else {
		s = s[1:]
	}
	keys, rest, ok := ParseKey(s)
	if !ok {
		return nil, false
	}
	rest = strings.TrimLeft(rest, " \t")
	closing := "]"
	if array {
		closing = "]]"
	}
	if !strings.HasPrefix(rest, closing) {
		return nil, false
	}
	rest = strings.TrimSpace(rest[len(closing):])
	if rest != "" && !strings.HasPrefix(rest, "#") {
		return nil, false
	}
	return keys, array
}

// ParseKey reads a (dotted) key at the start of s, after optional blanks:
// bare parts, "basic" and 'literal' ones. rest is what follows it.
func ParseKey(s string) (keys []string, rest string, ok bool) {
	for {
		s = strings.TrimLeft(s, " \t")
		var key string
		switch {
		case strings.HasPrefix(s, `"`):
			end := stringEnd(s, 0)
			if end < 2 || s[end-1] != '"' || strings.HasPrefix(s, `"""`) {
				return nil, "", false
			}
			k, ok := unquote(s[:end])
			if !ok {
				return nil, "", false
			}
			key, s = k, s[end:]
		case strings.HasPrefix(s, "'"):
			end := strings.IndexAny(s[1:], "'\n")
			if end < 0 || s[1+end] != '\'' || strings.HasPrefix(s, "'''") {
				return nil, "", false
			}
			key, s = s[1:end+1], s[end+2:]
		default:
			end := 0
			for end < len(s) && isBare(s[end]) {
				end++
			}
			if end == 0 {
				return nil, "", false
			}
			key, s = s[:end], s[end:]
		}
		keys = append(keys, key)
		t := strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(t, ".") {
			return keys, s, true
		}
		s = t[1:]
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
