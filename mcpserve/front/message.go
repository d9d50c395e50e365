package front

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// JSON-RPC error codes of the spec (mcp.md, "JSON-RPC, exactly").
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeNoMethod       = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
	codeBadVersion     = -32022
)

// inbound is one JSON-RPC message as the client sent it, checked strictly.
// The SDK never sees the client's id: it gets an id of ours, and the
// answer goes out with id, the client's bytes, unchanged.
type inbound struct {
	id        json.RawMessage // nil for a notification
	key       string          // id identity, for "already in flight"
	method    string
	params    json.RawMessage // an object, or nil
	response  bool            // a client's answer to a request of ours
	stateless bool            // carries the 2026-07-28 protocolVersion
	tool      string          // tools/call: the tool's name, for the log
	// client and protocol say who connected, for the log: the clientInfo
	// and protocol version of initialize, or of server/discover's _meta.
	client, protocol string
}

// rpcError is an answer the front layer gives without the SDK.
type rpcError struct {
	code    int64
	message string
	data    any
}

func (e *rpcError) Error() string { return e.message }

func errorf(code int64, format string, args ...any) *rpcError {
	return &rpcError{code: code, message: fmt.Sprintf(format, args...)}
}

// integerID is a JSON integer: fractions and exponents are not ids.
var integerID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`) })

// parseMessage checks one JSON value against JSON-RPC 2.0 and the MCP
// params rules. On failure in still carries what could be read: the id (nil
// when absent or invalid: answered with null) and the method (a message with
// a method and no id is a notification, never answered).
func parseMessage(raw []byte) (*inbound, *rpcError) {
	raw = bytes.TrimSpace(raw)
	var fields map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &fields) != nil {
		return &inbound{}, errorf(codeInvalidRequest, "invalid request: a JSON-RPC message is a JSON object")
	}
	in := &inbound{}
	if id, ok := fields["id"]; ok {
		key, err := idKey(id)
		if err != nil {
			return in, err
		}
		in.id, in.key = id, key
	}
	if v := string(fields["jsonrpc"]); v != `"2.0"` {
		return in, errorf(codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	method, hasMethod := fields["method"]
	if !hasMethod {
		_, hasResult := fields["result"]
		_, hasError := fields["error"]
		if (hasResult || hasError) && in.id != nil {
			in.response = true
			return in, nil
		}
		return in, errorf(codeInvalidRequest, `invalid request: "method" is missing`)
	}
	if json.Unmarshal(method, &in.method) != nil || in.method == "" {
		return in, errorf(codeInvalidRequest, `invalid request: "method" must be a non-empty string`)
	}
	if p, ok := fields["params"]; ok && string(p) != "null" {
		if p[0] != '{' {
			return in, errorf(codeInvalidParams, "invalid params: %s takes params as a JSON object", Clip(in.method, 100))
		}
		in.params = p
	}
	return in, checkParams(in)
}

// idKey validates an id (a string or an integer, as JSON-RPC allows) and
// returns its identity: "1" and 1 are different ids.
func idKey(id json.RawMessage) (string, *rpcError) {
	id = bytes.TrimSpace(id)
	switch {
	case len(id) > 0 && id[0] == '"':
		var s string
		if json.Unmarshal(id, &s) == nil {
			return "s" + s, nil
		}
	case integerID().Match(id):
		return "n" + string(id), nil
	}
	return "", errorf(codeInvalidRequest, "invalid request: an id must be a string or a whole number, not %s", Clip(string(id), 40))
}

// checkParams applies the MCP rules the SDK would answer with code 0:
// the shape of _meta, the protocol version, initialize's own params.
func checkParams(in *inbound) *rpcError {
	var p struct {
		Meta            json.RawMessage `json:"_meta"`
		Name            json.RawMessage `json:"name"`
		ProtocolVersion json.RawMessage `json:"protocolVersion"`
		ClientInfo      json.RawMessage `json:"clientInfo"`
	}
	if in.params != nil {
		if err := json.Unmarshal(in.params, &p); err != nil {
			return errorf(codeInvalidParams, "invalid params: %s takes params as a JSON object", in.method)
		}
	}
	if in.method == "tools/call" {
		_ = json.Unmarshal(p.Name, &in.tool)
		in.tool = Clip(in.tool, 64)
	}
	if in.method == "initialize" && p.ProtocolVersion != nil {
		var v string
		if json.Unmarshal(p.ProtocolVersion, &v) != nil {
			return errorf(codeInvalidParams, `invalid params: protocolVersion must be a string such as "2025-11-25"`)
		}
		in.protocol = Clip(v, 32)
	}
	if in.method == "initialize" {
		in.client = clientName(p.ClientInfo)
	}
	if p.Meta == nil {
		return nil
	}
	if p.Meta[0] != '{' {
		return errorf(codeInvalidParams, "invalid params: _meta must be a JSON object")
	}
	var meta map[string]json.RawMessage
	_ = json.Unmarshal(p.Meta, &meta)
	rawVersion, hasVersion := meta[MetaVersion]
	_, hasCaps := meta[MetaCapabilities]
	if !hasVersion {
		if hasCaps {
			return errorf(codeInvalidParams, "invalid params: _meta has %s but no %s", MetaCapabilities, MetaVersion)
		}
		return nil
	}
	var version string
	if json.Unmarshal(rawVersion, &version) != nil {
		return errorf(codeInvalidParams, `invalid params: _meta[%q] must be a string such as "2026-07-28"`, MetaVersion)
	}
	if !slices.Contains(mcp.SupportedProtocolVersions(), version) {
		return &rpcError{code: codeBadVersion, message: "unsupported protocol version",
			data: map[string]any{"supported": mcp.SupportedProtocolVersions(), "requested": Clip(version, 100)}}
	}
	if !hasCaps {
		return errorf(codeInvalidParams, "invalid params: _meta needs %s under protocol %s", MetaCapabilities, version)
	}
	in.stateless = true
	if in.method == "server/discover" {
		in.client, in.protocol = clientName(meta[metaClientInfo]), Clip(version, 32)
	}
	return nil
}

// clientName is "name version" of a clientInfo object, bounded; "" when
// there is none or it is not an object.
func clientName(raw json.RawMessage) string {
	var info struct{ Name, Version string }
	if json.Unmarshal(raw, &info) != nil {
		return ""
	}
	return Clip(strings.TrimSpace(info.Name+" "+info.Version), 100)
}

// Clip bounds an echoed value, so no input can make an answer large; the
// tools clip what they echo by the same rule.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
