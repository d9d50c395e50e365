package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/plainjson"
	"loams.dev/cli/mcpserve/front"
)

// resultCap is the largest result a tool returns unless it says otherwise:
// agents pay for every byte in their context.
const resultCap = 32 << 10

// A tool is one entry of tools/list and the function behind it.
type tool struct {
	def    *mcp.Tool
	handle mcp.ToolHandler
	// infer computes the schemas from the Go types, as `go generate`
	// does; start-up uses the generated ones (schemas.go).
	infer func() (in, out *jsonschema.Schema, err error)
}

// toolSpec is what a tool file declares; newTool turns it into a tool.
type toolSpec[In, Out any] struct {
	Name, Title, Description string
	Annotations              mcp.ToolAnnotations
	// Schema adjusts the inferred input schema: enums, bounds, defaults.
	Schema func(s *jsonschema.Schema)
	Run    func(ctx context.Context, in In) (Out, error)
	// Text renders the result for the text block most hosts show the
	// model; nil means the same compact JSON as structuredContent.
	Text func(Out) string
}

// truncatable results can shed items to fit under the cap; Truncate drops
// some and reports whether anything was left to drop.
type truncatable interface{ Truncate() bool }

// newTool declares a tool with the schemas generated from In (its
// `jsonschema` tags describe every field) and Out, and wraps Run so that
// arguments are checked against the input schema (liberally: see
// decodeArgs), errors become isError results with a code and a hint, and
// the result fits under the cap. The input schema is resolved for checking
// on the tool's first call, not at start.
func newTool[In, Out any](spec toolSpec[In, Out]) tool {
	infer := func() (*jsonschema.Schema, *jsonschema.Schema, error) { return inferSchemas(spec) }
	inJSON, outJSON, ok := generatedSchemas(spec.Name)
	if !ok { // not generated yet: infer now (TestGeneratedSchemasAreCurrent fails meanwhile)
		in, out, err := infer()
		if err != nil {
			panic(fmt.Sprintf("tool %s: %v", spec.Name, err)) // a programming error, caught by every test
		}
		inJSON, outJSON = string(compactJSON(in)), string(compactJSON(out))
	}
	args := sync.OnceValues(func() (argSchema, error) {
		var schema jsonschema.Schema
		if err := json.Unmarshal([]byte(inJSON), &schema); err != nil {
			return argSchema{}, err
		}
		return newArgSchema(&schema)
	})
	// The title goes in Tool.title only: annotations.title is the same
	// words again, the fallback of clients older than 2025-06-18 (which then
	// show the name), and tools/list is read in every session (6 KiB budget).
	ann := spec.Annotations
	def := &mcp.Tool{Name: spec.Name, Title: spec.Title, Description: spec.Description,
		InputSchema: json.RawMessage(inJSON), OutputSchema: json.RawMessage(outJSON), Annotations: &ann}
	handle := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		schema, err := args()
		if err != nil {
			return failure(errs.New(errs.Internal, "this is a bug in loams; please report it", "the %s schema does not resolve: %v", spec.Name, err)), nil
		}
		in, ignored, err := decodeArgs[In](req.Params.Arguments, schema)
		res := failure(forAgent(spec.Name, err))
		if err == nil {
			if out, err := spec.Run(ctx, in); err != nil {
				res = failure(forAgent(spec.Name, err))
			} else if spec.Text != nil {
				res = successAs(out, func() string { return spec.Text(out) })
			} else {
				res = success(out)
			}
		}
		if len(ignored) > 0 {
			res.Meta = mcp.Meta{ignoredKey: ignored}
		}
		return res, nil
	}
	return tool{def: def, handle: handle, infer: infer}
}

// toolError is the structured content of a failed call: what the model
// reads to recover.
type toolError struct {
	Error   string         `json:"error"`
	Message string         `json:"message"`
	Hint    string         `json:"hint"`
	Details map[string]any `json:"details,omitempty"`
}

// forAgent makes err's hint one an agent can act on: a tool call or a
// request to the user. Packages write both renderings where the CLI hint
// names a command or a flag (errs.ForAgent); a hint that names neither
// ("pass a file name, e.g. .env.loams") gets "then call TOOL again".
// TestEveryErrorHintFitsAnAgent holds every code a tool returns to it.
func forAgent(toolName string, err error) error {
	if err == nil {
		return nil
	}
	e := toolErr(err)
	hint := e.HintFor(true)
	switch {
	case e.Code == errs.Internal:
		hint = "ask the user to report this bug in loams, with the message"
	case e.Code == errs.Interrupted || e.Code == errs.Timeout && e.AgentHint == "" && !strings.Contains(hint, "`"):
		hint = errs.ToolCall(toolName, nil) + " again"
	case agentActionable(hint):
		return e
	default:
		hint = strings.TrimRight(hint, ". ") + "; then call " + toolName + " again"
	}
	c := *e // errors can be shared: never edit the caller's
	c.AgentHint = hint
	return &c
}

// toolErr is the coded error a tool call ended with: a cancelled or
// expired context becomes interrupted or timeout, anything uncoded internal.
func toolErr(err error) *errs.Error {
	var e *errs.Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, context.Canceled):
		return errs.New(errs.Interrupted, "retry the call", "the call was cancelled")
	case errors.Is(err, context.DeadlineExceeded):
		return errs.New(errs.Timeout, "retry the call", "the call timed out")
	}
	return errs.As(err)
}

// agentActionable reports whether a hint names a tool to call or asks the
// user: what an agent can do.
func agentActionable(hint string) bool {
	if strings.Contains(hint, "ask the user") {
		return true
	}
	for _, name := range toolNames {
		if strings.Contains(hint, "call "+name) {
			return true
		}
	}
	return false
}

func failure(err error) *mcp.CallToolResult {
	if err == nil {
		return nil
	}
	e := toolErr(err)
	// Messages can quote what the caller sent: keep them short, and drop
	// details (a long log tail) rather than exceed the cap.
	body := toolError{Error: string(e.Code), Message: front.Clip(e.Message, 1000), Hint: front.Clip(e.HintFor(true), 1000), Details: e.Details}
	res := structured(body)
	if len(res.Content[0].(*mcp.TextContent).Text) > resultCap {
		body.Details = map[string]any{"truncated": true}
		res = structured(body)
	}
	res.IsError = true
	return res
}

func success(out any) *mcp.CallToolResult { return successAs(out, nil) }

// successAs is success with the text block rendered by text (read after
// each truncation) instead of the JSON.
func successAs(out any, text func() string) *mcp.CallToolResult {
	for {
		res := structured(out)
		size := len(res.StructuredContent.(json.RawMessage))
		if text != nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: text()}}
			size = max(size, len(res.Content[0].(*mcp.TextContent).Text))
		}
		if size <= resultCap {
			return res
		}
		t, ok := out.(truncatable)
		if !ok || !t.Truncate() {
			return failure(errs.New(errs.Internal, "ask for less (a smaller limit)", "the result is larger than %d KiB", resultCap>>10))
		}
	}
}

// structured puts v in structuredContent and the same JSON in one text item.
func structured(v any) *mcp.CallToolResult {
	data, err := plainjson.Marshal(v)
	if err != nil {
		data = []byte(`{"error":"internal","message":"result could not be encoded","hint":"ask the user to report this bug in loams"}`)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(data)}},
		StructuredContent: json.RawMessage(data),
	}
}

// The four hints, each spelled out at every tool (the MCP guide's table
// gives the reasons). A host may auto-approve a read-only tool or skip the
// confirmation of a non-destructive one: when in doubt, the cautious value.
const (
	readOnly, writes            = true, false
	destructive, notDestructive = true, false
	idempotent, notIdempotent   = true, false
	openWorld, closedWorld      = true, false
)

// annotations sets all four hints explicitly: the SDK omits a nil
// destructiveHint or openWorldHint, and some hosts reject a tool without them.
func annotations(readOnlyHint, destructiveHint, idempotentHint, openWorldHint bool) mcp.ToolAnnotations {
	return mcp.ToolAnnotations{ReadOnlyHint: readOnlyHint, DestructiveHint: &destructiveHint,
		IdempotentHint: idempotentHint, OpenWorldHint: &openWorldHint}
}
