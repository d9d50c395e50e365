// Package inert shows text loams did not write (server answers, files of
// others, logs) on a terminal as text and nothing more: a control
// character in it could clear the screen, retitle the window or, with OSC
// 52, set the user's clipboard. Every one is escaped so it is seen, not
// obeyed.
package inert

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// needs reports whether r is a control a terminal acts on: C0 except
// newline and tab (ESC, CR, BEL… included), DEL, and C1 (U+0080–U+009F,
// which 8-bit terminals read as ESC-sequences).
func needs(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f
}

// String returns s with every such control escaped as Go writes it
// (\x1b, \r, \u009b), and every byte that is not UTF-8 as \xNN.
func String(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && needs(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case needs(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Strings is String on each element, in a new slice (nil stays nil).
func Strings(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = String(s)
	}
	return out
}

func clean(s string) bool { return utf8.ValidString(s) && !strings.ContainsFunc(s, needs) }

// Writer escapes what is written through it (a followed log). Each write
// is escaped on its own: callers write whole lines.
type Writer struct{ W io.Writer }

func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, String(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
