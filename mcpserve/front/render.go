package front

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"loams.dev/cli/internal/plainjson"
	"loams.dev/cli/internal/redact"
)

// render turns the SDK's answer into the line the client gets.
func render(c *call, resp *jsonrpc.Response) ([]byte, string) {
	if resp.Error != nil {
		rerr := fromSDKError(c.in.method, resp.Error)
		return errorLine(c.in.id, rerr), fmt.Sprintf("rpc_error %d", rerr.code)
	}
	result := []byte(resp.Result)
	if !c.in.stateless {
		result = withoutCacheFields(result)
	}
	result = redact.Bytes(unescapeHTML(result))
	line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":%s}`, c.in.id, result)
	return line, toolOutcome(result)
}

// toolOutcome is "ok", or "tool_error CODE" for an isError tool result.
func toolOutcome(result []byte) string {
	if !bytes.Contains(result, []byte(`"isError":true`)) {
		return "ok"
	}
	var r struct {
		StructuredContent struct {
			Error string `json:"error"`
		} `json:"structuredContent"`
	}
	_ = json.Unmarshal(result, &r)
	return "tool_error " + r.StructuredContent.Error
}

// withoutCacheFields drops ttlMs and cacheScope: the revisions before
// 2026-07-28 have no such fields, and the SDK sends "ttlMs":0, which tells
// a caching client to fetch the list again every time.
func withoutCacheFields(result []byte) []byte {
	if !bytes.Contains(result, []byte(`"ttlMs"`)) && !bytes.Contains(result, []byte(`"cacheScope"`)) {
		return result
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil {
		return result
	}
	delete(m, "ttlMs")
	delete(m, "cacheScope")
	out, err := plainjson.Marshal(m)
	if err != nil {
		return result
	}
	return out
}

// errorLine is a JSON-RPC error answer; a nil id is written as null.
func errorLine(id json.RawMessage, e *rpcError) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	body := map[string]any{"code": e.code, "message": redact.String(e.message)}
	if e.data != nil {
		body["data"] = e.data
	}
	errJSON, _ := plainjson.Marshal(body)
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":%s}`, id, errJSON)
}

// goInternals finds what a person should never read in an error message:
// Go type names and decoder chatter from the SDK.
var (
	goInternals = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bmcp\.[A-Za-z]|jsonrpc2|reflect\.|Go (struct field|value)|unmarshal|<invalid`)
	})
	goField = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`Go struct field (?:[\w*]+\.)*(\w+) of type ([\w.\[\]*]+)`)
	})
)

// fromSDKError gives every SDK error a JSON-RPC code (the SDK leaves some
// at 0) and a message without Go internals, at most 300 characters long.
func fromSDKError(method string, err error) *rpcError {
	e := &rpcError{message: err.Error()}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		e.code = wire.Code
		if len(wire.Data) > 0 && json.Valid(wire.Data) {
			e.data = json.RawMessage(wire.Data)
		}
	}
	if e.code == 0 {
		switch msg := e.message; {
		case strings.Contains(msg, "duplicate"):
			e.code = codeInvalidRequest
		case strings.Contains(msg, "invalid params"), strings.Contains(msg, "unmarshal"), strings.Contains(msg, "during session initialization"):
			e.code = codeInvalidParams
		default:
			e.code = codeInternal
		}
	}
	if goInternals().MatchString(e.message) {
		e.message = fmt.Sprintf("invalid params: %s takes params of the shape the MCP specification gives", Clip(method, 100))
		if m := goField().FindStringSubmatch(err.Error()); m != nil {
			e.message = fmt.Sprintf("invalid params: %s must be %s", m[1], jsonKind(m[2]))
		}
	}
	e.message = Clip(e.message, 300)
	return e
}

func jsonKind(goType string) string {
	switch t := strings.TrimLeft(goType, "*"); {
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	}
	return "an object"
}
