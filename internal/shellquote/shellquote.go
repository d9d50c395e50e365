// Package shellquote renders an argv as one line a person can paste into a
// POSIX shell and run exactly that argv: the command lines loams prints
// (pkg add, mcp install, doctor) and the ones its errors name.
package shellquote

import "strings"

// safe are the characters that need no quoting.
const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./@~=:+,"

// Join renders argv; an argument with anything else (PyPI pins hold < and
// >, a path may hold spaces) is single-quoted.
func Join(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.Trim(a, safe) == "" {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}
