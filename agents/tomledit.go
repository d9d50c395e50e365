package agents

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// This file edits one table ([mcp_servers.NAME]) of a TOML document by
// lines: comments, other tables and formatting stay byte for byte, and the
// result must parse.

// tomlValue is one key = value line of our table.
type tomlValue struct {
	Key   string
	Value any // string or []string
}

func tomlDecode(doc []byte) (map[string]any, error) {
	var v map[string]any
	if _, err := toml.Decode(string(doc), &v); err != nil {
		return nil, err
	}
	return v, nil
}

// tomlGet returns table.name (e.g. mcp_servers.loams) as decoded.
func tomlGet(doc []byte, table, name string) (map[string]any, bool, error) {
	v, err := tomlDecode(doc)
	if err != nil {
		return nil, false, err
	}
	servers, _ := v[table].(map[string]any)
	entry, ok := servers[name].(map[string]any)
	return entry, ok, nil
}

// tomlLines splits doc keeping each line's ending.
func tomlLines(doc []byte) []string {
	var out []string
	for len(doc) > 0 {
		i := bytes.IndexByte(doc, '\n')
		if i < 0 {
			out = append(out, string(doc))
			break
		}
		out = append(out, string(doc[:i+1]))
		doc = doc[i+1:]
	}
	return out
}

// headerKeys parses a table header line into its dotted keys; nil if the
// line is not a [table] header.
func headerKeys(line string) []string {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "[") || strings.HasPrefix(s, "[[") {
		return nil
	}
	s = s[1:]
	var keys []string
	for {
		s = strings.TrimLeft(s, " \t")
		var key string
		switch {
		case strings.HasPrefix(s, `"`):
			end := strings.Index(s[1:], `"`)
			if end < 0 {
				return nil
			}
			key, s = s[1:end+1], s[end+2:]
		case strings.HasPrefix(s, "'"):
			end := strings.Index(s[1:], "'")
			if end < 0 {
				return nil
			}
			key, s = s[1:end+1], s[end+2:]
		default:
			end := strings.IndexAny(s, ".] \t")
			if end < 0 {
				return nil
			}
			key, s = s[:end], s[end:]
		}
		keys = append(keys, key)
		s = strings.TrimLeft(s, " \t")
		if strings.HasPrefix(s, ".") {
			s = s[1:]
			continue
		}
		if strings.HasPrefix(s, "]") {
			return keys
		}
		return nil
	}
}

// isTableStart reports whether line opens any table or array of tables.
func isTableStart(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), "[")
}

// tableSpan finds [table.name] and its sub-tables: lines [start, end), with
// trailing blank and comment lines left to whatever follows.
func tableSpan(lines []string, table, name string) (start, end int, ok bool) {
	start = -1
	for i, l := range lines {
		if !isTableStart(l) {
			continue
		}
		keys := headerKeys(l)
		ours := len(keys) >= 2 && keys[0] == table && keys[1] == name
		if start < 0 && ours && len(keys) == 2 {
			start = i
			continue
		}
		if start >= 0 && !ours {
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
		t := strings.TrimSpace(lines[end-1])
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
		end--
	}
	return start, end, true
}

func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlKey(k string) string {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return tomlString(k)
		}
	}
	return k
}

func renderTable(table, name string, values []tomlValue, nl string) []string {
	out := []string{"[" + tomlKey(table) + "." + tomlKey(name) + "]" + nl}
	for _, v := range values {
		var val string
		switch x := v.Value.(type) {
		case string:
			val = tomlString(x)
		case []string:
			parts := make([]string, len(x))
			for i, s := range x {
				parts[i] = tomlString(s)
			}
			val = "[" + strings.Join(parts, ", ") + "]"
		}
		out = append(out, tomlKey(v.Key)+" = "+val+nl)
	}
	return out
}

func asDecoded(values []tomlValue) map[string]any {
	m := map[string]any{}
	for _, v := range values {
		switch x := v.Value.(type) {
		case []string:
			arr := make([]any, len(x))
			for i, s := range x {
				arr[i] = s
			}
			m[v.Key] = arr
		default:
			m[v.Key] = x
		}
	}
	return m
}

// errInline is a table we could edit only by rewriting foreign lines.
type errInline struct{ table, name string }

func (e errInline) Error() string {
	return fmt.Sprintf("%s.%s is written inline or with dotted keys, not as a [%s.%s] table", e.table, e.name, e.table, e.name)
}

// tomlSet makes [table.name] hold exactly values.
func tomlSet(doc []byte, table, name string, values []tomlValue) ([]byte, error) {
	entry, found, err := tomlGet(doc, table, name)
	if err != nil {
		return nil, err
	}
	if found && reflect.DeepEqual(entry, asDecoded(values)) {
		return doc, nil
	}
	lines := tomlLines(doc)
	nl := "\n"
	if len(lines) > 0 && strings.HasSuffix(lines[0], "\r\n") {
		nl = "\r\n"
	}
	var out []string
	if start, end, ok := tableSpan(lines, table, name); ok {
		out = append(append(append(out, lines[:start]...), renderTable(table, name, values, nl)...), lines[end:]...)
	} else if found {
		return nil, errInline{table, name}
	} else {
		out = append(out, lines...)
		if n := len(out); n > 0 {
			if !strings.HasSuffix(out[n-1], "\n") {
				out[n-1] += nl
			}
			if strings.TrimSpace(out[n-1]) != "" {
				out = append(out, nl)
			}
		}
		out = append(out, renderTable(table, name, values, nl)...)
	}
	result := []byte(strings.Join(out, ""))
	got, ok, err := tomlGet(result, table, name)
	if err != nil || !ok || !reflect.DeepEqual(got, asDecoded(values)) {
		return nil, fmt.Errorf("editing [%s.%s] would not give a valid file (%v)", table, name, err)
	}
	return result, nil
}

// tomlRemove deletes [table.name] (and the blank line we put before it).
func tomlRemove(doc []byte, table, name string) ([]byte, bool, error) {
	_, found, err := tomlGet(doc, table, name)
	if err != nil || !found {
		return doc, false, err
	}
	lines := tomlLines(doc)
	start, end, ok := tableSpan(lines, table, name)
	if !ok {
		return nil, false, errInline{table, name}
	}
	if start > 0 && strings.TrimSpace(lines[start-1]) == "" && (end == len(lines) || strings.TrimSpace(lines[end]) == "") {
		start--
	}
	out := strings.Join(append(append([]string{}, lines[:start]...), lines[end:]...), "")
	if _, err := tomlDecode([]byte(out)); err != nil {
		return nil, false, fmt.Errorf("removing [%s.%s] would not give a valid file: %v", table, name, err)
	}
	return []byte(out), true, nil
}
