// Package redact is the one place secret values are taken out of what the
// process returns: tool results, error messages, CLI output, log tails and
// logs. Code that reads a secret registers its value here (secret.New does
// it for every stack and profile key); the writers at the edges (the MCP
// result writer, the CLI's output and error renderer, the log handler)
// pass everything through String or Bytes.
package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Placeholder replaces every known secret value.
const Placeholder = "<redacted>"

// loamsKey is the shape of every Loams API key (secret.Generate). A value
// of that shape is hidden even when this process never read it: a server
// prints its key to its log, and `stack logs` has no reason to open the
// keyring just to know what to hide.
var loamsKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`loams_[a-z0-9]{12}_[A-Za-z0-9]{32}`) })

// minLen keeps short values out of the registry: redacting "dev" or "1"
// would mangle every message without protecting anything.
const minLen = 8

// The registry is process-wide on purpose: a secret read anywhere in the
// process must be hidden everywhere the process writes, and the writers
// (an io.Writer, a slog handler) cannot be handed a registry per call.
var registry struct {
	sync.RWMutex
	values   []string
	replacer *strings.Replacer
}

// Add makes values known secrets from now on. Empty and short values are
// ignored.
func Add(values ...string) {
	registry.Lock()
	defer registry.Unlock()
	for _, v := range values {
		if len(v) < minLen || slices.Contains(registry.values, v) {
			continue
		}
		registry.values = append(registry.values, v)
		// The JSON-escaped form too, for values with quotes or backslashes
		// that are found inside encoded documents.
		if enc, err := json.Marshal(v); err == nil {
			if esc := string(enc[1 : len(enc)-1]); esc != v {
				registry.values = append(registry.values, esc)
			}
		}
	}
	var pairs []string
	for _, v := range registry.values {
		pairs = append(pairs, v, Placeholder)
	}
	registry.replacer = strings.NewReplacer(pairs...)
}

// String returns s with every known secret value replaced by Placeholder.
func String(s string) string {
	registry.RLock()
	r := registry.replacer
	registry.RUnlock()
	if r != nil {
		s = r.Replace(s)
	}
	if strings.Contains(s, "loams_") {
		s = loamsKey().ReplaceAllLiteralString(s, Placeholder)
	}
	return s
}

// Bytes is String for a byte slice; b is returned as is when it holds no
// secret.
func Bytes(b []byte) []byte {
	registry.RLock()
	values, r := registry.values, registry.replacer
	registry.RUnlock()
	for _, v := range values {
		if bytes.Contains(b, []byte(v)) {
			b = []byte(r.Replace(string(b)))
			break
		}
	}
	if bytes.Contains(b, []byte("loams_")) {
		b = loamsKey().ReplaceAllLiteral(b, []byte(Placeholder))
	}
	return b
}

// Writer passes every write through Bytes. A secret split across two
// writes is not caught: wrap writers that receive whole documents or lines
// (the output printer and the error renderer do).
type Writer struct{ W io.Writer }

func (w Writer) Write(p []byte) (int, error) {
	if _, err := w.W.Write(Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
