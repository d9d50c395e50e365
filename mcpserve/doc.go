// Package mcpserve is `loams mcp serve`: a stdio MCP server, built on the
// official Go SDK, that offers coding agents eight fixed tools.
//
// The SDK speaks both protocol generations (the initialize handshake and the
// stateless 2026-07-28 revision). Between it and stdio sits package front, a
// strict JSON-RPC layer: it frames lines, checks every message, answers
// malformed ones itself, and forwards valid requests to the SDK under ids
// of its own, so every client id is answered exactly once, byte for byte,
// redacted. Old-handshake and 2026-07-28 requests go to two SDK sessions.
// front knows nothing of the tools: this package imports it, never the
// other way, and hands it the prepared tools/list (prepared.go). Tool arguments
// are decoded liberally (args.go): unknown ones ignored and named in
// _meta["loams/ignored_arguments"], exact strings converted.
//
// # Adding a tool
//
// One file per tool, named after it (stack_start.go). The file declares an
// input struct whose `json` and `jsonschema` tags name and describe every
// field (the schema is inferred from it, open to extra properties), a
// result struct with snake_case json tags, and a method on *Server:
//
//	func (s *Server) stackStartTool() tool {
//		return newTool(toolSpec[stackStartInput, stack.Description]{
//			Name: "stack_start", Title: "Start a local stack",
//			Description: "When to use it, an example, the limits (≤ ~400 chars).",
//			Annotations: annotations(writes, notDestructive, idempotent, closedWorld),
//			Schema:      func(s *jsonschema.Schema) { /* enums, bounds, defaults */ },
//			Run:         s.stackStart,
//		})
//	}
//
// then adds one line to (*Server).tools in server.go. Run returns the result
// or an error: a *errs.Error becomes an isError result {error, message,
// hint}; arguments that fail the schema never reach Run. A result over
// 32 KiB is shrunk through its Truncate method (see truncatable) or refused.
// Tools call stack/, docsindex/, envfile/, pkgadd/ directly, and open slow
// things (the docs index, the keyring) on first use, never in New.
// After changing a tool, rewrite the snapshot:
//
//	LOAMS_UPDATE_GOLDEN=1 go test ./mcpserve -run Golden
package mcpserve
