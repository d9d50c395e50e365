package front

import "bytes"

// unescapeHTML undoes encoding/json's HTML escaping (\u003c, \u003e,
// \u0026) in a JSON document the SDK marshalled: "<redacted>" and Markdown
// code reach the model as written, and fewer bytes. Every backslash in
// valid JSON starts an escape inside a string, so walking escape by escape
// never mistakes an escaped backslash followed by "u003c" for one.
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+5 < len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c":
				out, i = append(out, '<'), i+5
				continue
			case "003e":
				out, i = append(out, '>'), i+5
				continue
			case "0026":
				out, i = append(out, '&'), i+5
				continue
			}
		}
		out, i = append(out, b[i], b[i+1]), i+1
	}
	return out
}
