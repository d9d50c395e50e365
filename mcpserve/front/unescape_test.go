package front

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"loams.dev/cli/internal/plainjson"
)

func TestUnescapeHTML(t *testing.T) {
	t.Parallel()
	for _, v := range []any{
		map[string]string{"a": "<redacted> & <b>", "b": `\u003c stays as typed`, "c": `\\u003e`, "d": "\u2028"},
		[]string{`\`, `\\`, "<", `"<"`},
	} {
		escaped, _ := json.Marshal(v)
		got := unescapeHTML(escaped)
		plain, _ := plainjson.Marshal(v)
		if string(got) != string(plain) {
			t.Errorf("unescapeHTML(%s) = %s, want %s", escaped, got, plain)
		}
		var back any
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("%s: %v", got, err)
		}
	}
}

func FuzzUnescapeHTML(f *testing.F) {
	f.Add(`<a href="x">&amp;</a> \u003c \\u003c`)
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip("encoding/json replaces invalid UTF-8 itself")
		}
		escaped, _ := json.Marshal(s)
		var back string
		if err := json.Unmarshal(unescapeHTML(escaped), &back); err != nil || back != s {
			t.Fatalf("%q: round trip gave %q, %v", s, back, err)
		}
	})
}
