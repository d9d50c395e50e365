// Package front is the strict JSON-RPC layer of `loams mcp serve`, between
// stdio and the MCP SDK's sessions: it frames lines, checks every message
// against JSON-RPC 2.0 and the MCP revisions' rules, answers what is
// malformed itself, and forwards the rest to the SDK under ids of its own,
// so every client id is answered exactly once, byte for byte, redacted.
//
// It knows nothing of the tools behind it: the server imports front, never
// the other way, and passes what the front needs in a Config.
package front
