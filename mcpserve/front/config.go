package front

import (
	"encoding/json"
	"log/slog"
)

// Config is what the front needs from the server it stands before.
type Config struct {
	// Log receives one line per request (method, tool, outcome, duration;
	// never the arguments) and the front's own warnings.
	Log *slog.Logger
	// Prepared answers a request without the SDK when it can (the server's
	// tools/list, prepared at go generate time): the whole answer line, or
	// nil to let the SDK answer. It is called with the front's lock held,
	// so it must not block.
	Prepared func(Request) []byte
	// SignalsReady, when set, is closed once signal handlers are installed
	// (off the start's critical path); the first answer waits for it.
	SignalsReady <-chan struct{}
}

// Request is what Config.Prepared may read of a checked request.
type Request struct {
	ID        json.RawMessage // the client's id, as sent
	Method    string
	Params    json.RawMessage // an object, or nil
	Stateless bool            // carries the 2026-07-28 protocolVersion and capabilities
}

// Keys of the 2026-07-28 revision's per-request _meta.
const (
	MetaVersion      = "io.modelcontextprotocol/protocolVersion"
	MetaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
)
