// Package tomlkey is how loams writes TOML names and strings and reads the
// shape of a TOML file it edits by lines (config.toml, a project's
// loams.toml, agents' TOML configs). Every table name, key and string loams
// writes goes through Key, Table or String: a name is data, so a profile
// called `x]` + newline + `[profile.default]` stays one quoted name and can
// never open a table of its own.
package tomlkey

import (
	"fmt"
	"strings"
)

// Key is k as a TOML key: bare when TOML allows it, else a basic string.
func Key(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return String(k)
		}
	}
	return k
}

// Table is the header line of the table named by keys, without the line
// ending: Table("profile", "x]") is `[profile."x]"]`.
func Table(keys ...string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = Key(k)
	}
	return "[" + strings.Join(q, ".") + "]"
}

// String is s as a TOML basic string. Control characters (newlines
// included) are escaped, so the result is always one line.
func String(s string) string {
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
