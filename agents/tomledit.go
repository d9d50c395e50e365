package agents

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"loams.dev/cli/internal/tomlkey"
)

// This file edits one table ([mcp_servers.NAME]) of a TOML document by
// lines: comments, other tables and formatting stay byte for byte, and the
// result must parse. Inside our table only the lines of the keys we own
// (command, args, url) change; the user's keys, comments and sub-tables
// ([mcp_servers.loams.env]) stay. No TOML library served here keeps
// comments on a round trip, hence the line editor.

func tomlDecode(doc []byte) (map[string]any, error) {
	var v map[string]any
	if _, err := toml.Decode(string(doc), &v); err != nil {
		return nil, err
	}
	return v, nil
}

// tomlServers decodes every [table.NAME] (e.g. mcp_servers.loams).
func tomlServers(doc []byte, table string) (map[string]map[string]any, error) {
	v, err := tomlDecode(doc)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]any{}
	servers, _ := v[table].(map[string]any)
	for k, e := range servers {
		if m, ok := e.(map[string]any); ok {
			out[k] = m
		}
	}
	return out, nil
}

// tomlGet returns table.name as decoded.
func tomlGet(doc []byte, table, name string) (map[string]any, bool, error) {
	servers, err := tomlServers(doc, table)
	entry, ok := servers[name]
	return entry, ok, err
}

// tomlLines splits doc keeping each line's ending.
func tomlLines(doc []byte) []string {
	lines := tomlkey.Lines(doc)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// ours reports whether a header belongs to [table.name]: the table itself
// or one of its sub-tables ([mcp_servers.loams.env], [[…loams.x]]).
func ours(h []string, table, name string) bool {
	return len(h) >= 2 && h[0] == table && h[1] == name
}

// tableSpan finds [table.name] and its sub-tables: lines [start, end), with
// trailing blank and comment lines left to whatever follows. Headers are
// those internal/tomlkey's scanner finds, the ones TOML sees: a
// `[mcp_servers.loams]` line inside a multi-line string is the user's text.
func tableSpan(lines []tomlkey.Line, table, name string) (start, end int, ok bool) {
	start = -1
	for i, l := range lines {
		if l.Header == nil {
			continue
		}
		mine := ours(l.Header, table, name)
		if start < 0 && mine && len(l.Header) == 2 && !l.Array {
			start = i
			continue
		}
		if start >= 0 && !mine {
			end = i
			break
		}
	}
	if start < 0 {
		return 0, 0, false
	}
	if end == 0 {
		end = len(lines)
	}
	for end > start+1 {
		t := strings.TrimSpace(lines[end-1].Text)
		if !lines[end-1].Top || t != "" && !strings.HasPrefix(t, "#") {
			break
		}
		end--
	}
	return start, end, true
}

// tomlRemove deletes [table.name] (and the blank line we put before it).
func tomlRemove(doc []byte, table, name string) ([]byte, bool, error) {
	_, found, err := tomlGet(doc, table, name)
	if err != nil || !found {
		return doc, false, err
	}
	scanned := tomlkey.Lines(doc)
	start, end, ok := tableSpan(scanned, table, name)
	if !ok {
		return nil, false, errInline{table, name}
	}
	lines := tomlLines(doc)
	if start > 0 && scanned[start-1].Top && strings.TrimSpace(lines[start-1]) == "" && (end == len(lines) || strings.TrimSpace(lines[end]) == "") {
		start--
	}
	out := []byte(strings.Join(append(append([]string{}, lines[:start]...), lines[end:]...), ""))
	same, left, err := tomlkey.SameBut(doc, out, table, name)
	if err != nil {
		return nil, false, fmt.Errorf("removing [%s.%s] would not give a valid file: %v", table, name, err)
	}
	if !same || left != nil {
		return nil, false, fmt.Errorf("removing the lines of [%s.%s] would change more than that table", table, name)
	}
	return out, true, nil
}

// tomlLiteral writes a value of our entries (string, []string, bool).
func tomlLiteral(v any) string {
	switch x := v.(type) {
	case string:
		return tomlkey.String(x)
	case []string:
		parts := make([]string, len(x))
		for i, s := range x {
			parts[i] = tomlkey.String(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case bool:
		return fmt.Sprint(x)
	}
	panic(fmt.Sprintf("tomlLiteral: %T", v))
}

func renderTable(table, name string, v Object, nl string) []string {
	out := []string{tomlkey.Table(table, name) + nl}
	for _, m := range v {
		out = append(out, tomlkey.Key(m.Key)+" = "+tomlLiteral(m.Value)+nl)
	}
	return out
}

// asDecoded is v as the TOML decoder would return it.
func asDecoded(v any) any {
	if x, ok := v.([]string); ok {
		arr := make([]any, len(x))
		for i, s := range x {
			arr[i] = s
		}
		return arr
	}
	return v
}

// errInline is a table we could edit only by rewriting foreign lines.
type errInline struct{ table, name string }

func (e errInline) Error() string {
	return fmt.Sprintf("%s.%s is written inline or with dotted keys, not as a [%s.%s] table", e.table, e.name, e.table, e.name)
}

// tomlSet makes [table.name] run what v says: a new table is appended
// whole; in an existing one only the owned keys' lines are replaced (or
// added after its last key).
func tomlSet(doc []byte, table, name string, v Object, owned []string) ([]byte, error) {
	entry, found, err := tomlGet(doc, table, name)
	if err != nil {
		return nil, err
	}
	scanned := tomlkey.Lines(doc)
	lines := tomlLines(doc)
	nl := "\n"
	if len(lines) > 0 && strings.HasSuffix(lines[0], "\r\n") {
		nl = "\r\n"
	}
	var out []string
	if found {
		if _, _, ok := tableSpan(scanned, table, name); !ok {
			return nil, errInline{table, name}
		}
		out = slices.Clone(lines)
		for _, key := range owned {
			want, _ := v.get(key)
			if reflect.DeepEqual(entry[key], asDecoded(want)) {
				continue
			}
			// Each edit may change the line count: scan the current text again.
			cur := tomlkey.Lines([]byte(strings.Join(out, "")))
			start, _, _ := tableSpan(cur, table, name)
			out = setKeyLine(cur, start, key, tomlkey.Key(key)+" = "+tomlLiteral(want), nl)
		}
	} else {
		out = slices.Clone(lines)
		if n := len(out); n > 0 {
			if !strings.HasSuffix(out[n-1], "\n") {
				out[n-1] += nl
			}
			if strings.TrimSpace(out[n-1]) != "" {
				out = append(out, nl)
			}
		}
		out = append(out, renderTable(table, name, v, nl)...)
	}
	result := []byte(strings.Join(out, ""))
	got, ok, err := tomlGet(result, table, name)
	if err != nil || !ok {
		return nil, fmt.Errorf("editing [%s.%s] would not give a valid file (%v)", table, name, err)
	}
	for _, key := range owned {
		want, _ := v.get(key)
		if !reflect.DeepEqual(got[key], asDecoded(want)) {
			return nil, fmt.Errorf("editing [%s.%s] would not set %s", table, name, key)
		}
	}
	for k, old := range entry { // the user's keys and sub-tables are untouched
		if !slices.Contains(owned, k) && !reflect.DeepEqual(got[k], old) {
			return nil, fmt.Errorf("editing [%s.%s] would change %s", table, name, k)
		}
	}
	if same, _, _ := tomlkey.SameBut(doc, result, table, name); !same { // and so is every other table
		return nil, fmt.Errorf("editing [%s.%s] would change more than that table", table, name)
	}
	return result, nil
}

// setKeyLine replaces `key = …` in the table whose header is lines[start]
// (a value may span lines: a multi-line array or string), keeping the
// line's indentation and trailing comment; a missing key goes after the
// table's last key line. Keys and headers are the scanner's: a line inside
// a multi-line string is never taken for either.
func setKeyLine(lines []tomlkey.Line, start int, key, kv, nl string) []string {
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Text
	}
	end := start + 1
	for end < len(lines) && lines[end].Header == nil {
		end++
	}
	lastKey := start
	for i := start + 1; i < end; i++ {
		if lines[i].Key == nil {
			continue
		}
		// The value runs on over the lines that do not start at the top
		// level (inside its array, inline table or multi-line string).
		stop := i + 1
		for stop < end && !lines[stop].Top {
			stop++
		}
		lastKey = stop - 1
		if !slices.Equal(lines[i].Key, []string{key}) {
			continue
		}
		text := strings.Join(texts[i:stop], "")
		rest := strings.TrimLeft(text, " \t")
		_, after, _ := tomlkey.ParseKey(rest)
		eq := len(text) - len(strings.TrimLeft(after, " \t")) // the '=' after the key
		valueEnd := tomlValueEnd(text, eq+1)
		indent := text[:len(text)-len(rest)]
		replaced := indent + kv + text[valueEnd:]
		return append(append(slices.Clone(texts[:i]), tomlLines([]byte(replaced))...), texts[stop:]...)
	}
	ins := []string{kv + nl}
	return append(append(slices.Clone(texts[:lastKey+1]), ins...), texts[lastKey+1:]...)
}

// tomlValueEnd is the offset just past the value starting at or after p:
// a string, an array or inline table (which may span lines and hold
// comments), or a bare word (number, boolean, date).
func tomlValueEnd(s string, p int) int {
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	depth := 0
	for i := p; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			q := s[i : i+1]
			if strings.HasPrefix(s[i:], q+q+q) {
				j := strings.Index(s[i+3:], q+q+q)
				if j < 0 {
					return len(s)
				}
				i += 3 + j + 2
			} else {
				j := i + 1
				for j < len(s) && s[j] != c && s[j] != '\n' {
					if c == '"' && s[j] == '\\' {
						j++
					}
					j++
				}
				i = j
			}
			if depth == 0 {
				return min(i+1, len(s))
			}
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case c == '#' && depth > 0:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case depth == 0 && (c == '\n' || c == '\r' || c == '#'):
			return len(strings.TrimRight(s[:i], " \t"))
		}
	}
	return len(s)
}
