// Package plainjson encodes JSON as loams writes it for people, scripts
// and models: compact, and without HTML escaping, so "<redacted>" and a
// path with & stay readable instead of becoming \u003c…\u003e.
package plainjson

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Marshal is json.Marshal without HTML escaping (and without the
// encoder's trailing newline), controls escaped (EscapeControls).
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return EscapeControls(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

// EscapeControls finishes what encoding/json starts: it escapes C0 and
// ESC, but leaves DEL and the C1 controls (U+0080–U+009F) raw, and a
// document shown on a terminal (`jq`, `cat`) must not carry any of them
// (internal/inert). In encoded JSON these bytes occur only inside strings,
// so escaping them there keeps the document's meaning.
func EscapeControls(b []byte) []byte {
	if bytes.IndexByte(b, 0x7f) < 0 && bytes.IndexByte(b, 0xc2) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == 0x7f:
			out = append(out, `\u007f`...)
		case b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			out = fmt.Appendf(out, `\u%04x`, rune(b[i+1]))
			i++
		default:
			out = append(out, b[i])
		}
	}
	return out
}
