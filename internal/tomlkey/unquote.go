package tomlkey

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// unquote reads a one-line "basic" TOML string with TOML's escapes, which
// are not Go's: strconv.Unquote knows neither \e nor \x as a character
// (TOML 1.1, which the decoder reads), and takes \a, \v and octal, which
// TOML refuses.
func unquote(q string) (string, bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", false
	}
	s := q[1 : len(q)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i++; i == len(s) {
			return "", false
		}
		if r, ok := simpleEscapes[s[i]]; ok {
			b.WriteByte(r)
			continue
		}
		digits := hexEscapes[s[i]]
		if digits == 0 || i+digits >= len(s) {
			return "", false
		}
		n, err := strconv.ParseUint(s[i+1:i+1+digits], 16, 32)
		if err != nil || !utf8.ValidRune(rune(n)) {
			return "", false
		}
		b.WriteRune(rune(n))
		i += digits
	}
	return b.String(), true
}

var (
	simpleEscapes = map[byte]byte{'b': '\b', 't': '\t', 'n': '\n', 'f': '\f', 'r': '\r', 'e': 0x1b, '"': '"', '\\': '\\'}
	hexEscapes    = map[byte]int{'x': 2, 'u': 4, 'U': 8} // how many hex digits follow
)
