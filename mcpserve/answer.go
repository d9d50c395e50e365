package mcpserve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"loams.dev/cli/internal/redact"
)

// slot is where one message's answer goes: straight out, or into its batch.
type slot struct {
	batch *batch
	index int
}

// deliver sends line (nil: this message gets no answer).
func (s *slot) deliver(f *front, line []byte) {
	if s.batch == nil {
		if line != nil {
			_ = f.writeLine(line)
		}
		return
	}
	s.batch.fill(f, s.index, line)
}

// batch collects the answers to one inbound batch, which go out together
// as one array once the last member has its answer.
type batch struct {
	mu      sync.Mutex
	parts   [][]byte
	pending int
}

func (b *batch) fill(f *front, i int, line []byte) {
	b.mu.Lock()
	if i >= 0 {
		b.parts[i] = line
	}
	b.pending--
	complete := b.pending == 0
	b.mu.Unlock()
	if !complete {
		return
	}
	var out [][]byte
	for _, p := range b.parts {
		if p != nil {
			out = append(out, p)
		}
	}
	if len(out) > 0 {
		_ = f.writeLine(append(append([]byte{'['}, bytes.Join(out, []byte{','})...), ']'))
	}
}

// fromSDK is every message the SDK writes. An answer goes out under the
// client's own id, checked and redacted; answers nobody is owed any more
// (cancelled, or given up at shutdown) are dropped.
func (f *front) fromSDK(msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return err
		}
		return f.writeLine(redact.Bytes(unescapeHTML(data)))
	}
	n, _ := resp.ID.Raw().(int64)
	f.mu.Lock()
	c := f.calls[n]
	f.mu.Unlock()
	if c == nil {
		return nil
	}
	if c.cancelled {
		f.finish(n, nil, "cancelled")
		return nil
	}
	line, outcome := render(c, resp)
	f.finish(n, line, outcome)
	return nil
}

// finish retires call n and delivers its answer (nil: none is sent).
//
// The call stays counted until its answer is delivered: were it removed
// first, another call finishing at the same moment could find nothing in
// flight after EOF and end the server before this answer (or the batch
// it completes) is written.
func (f *front) finish(n int64, line []byte, outcome string) {
	f.mu.Lock()
	c := f.calls[n]
	if c == nil || c.finishing {
		f.mu.Unlock()
		return
	}
	c.finishing = true
	f.mu.Unlock()
	// Never the arguments: they can hold paths and values the user typed.
	attrs := []any{"method", c.in.method, "tool", c.in.tool, "duration_ms", time.Since(c.started).Milliseconds(), "outcome", outcome}
	if c.in.client != "" || c.in.protocol != "" {
		attrs = append(attrs, "client", c.in.client, "protocol", c.in.protocol) // which host, speaking which revision
	}
	f.log.Info("request", attrs...)
	c.slot.deliver(f, line)
	f.mu.Lock()
	delete(f.calls, n)
	if f.inFlight[c.in.key] == n {
		delete(f.inFlight, c.in.key)
	}
	f.settled.Broadcast()
	f.mu.Unlock()
	f.checkDone()
}

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
	out, err := marshal(m)
	if err != nil {
		return result
	}
	return out
}

// marshal encodes without HTML escaping, so "<redacted>" stays readable.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
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
	errJSON, _ := marshal(body)
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
		e.message = fmt.Sprintf("invalid params: %s takes params of the shape the MCP specification gives", clip(method, 100))
		if m := goField().FindStringSubmatch(err.Error()); m != nil {
			e.message = fmt.Sprintf("invalid params: %s must be %s", m[1], jsonKind(m[2]))
		}
	}
	e.message = clip(e.message, 300)
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
