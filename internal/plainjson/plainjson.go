// Package plainjson encodes JSON as loams writes it for people, scripts
// and models: compact, and without HTML escaping, so "<redacted>" and a
// path with & stay readable instead of becoming \u003c…\u003e.
package plainjson

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping (and without the
// encoder's trailing newline).
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
