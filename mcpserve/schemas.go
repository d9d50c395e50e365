package mcpserve

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// Twice: the prepared tools/list is read from a server built with the
// schemas the first run wrote.
//go:generate env LOAMS_UPDATE_GOLDEN=1 go test -count=1 -run TestGeneratedSchemasAreCurrent .
//go:generate env LOAMS_UPDATE_GOLDEN=1 go test -count=1 -run TestGeneratedSchemasAreCurrent .

// Tool schemas are inferred from Go types (inferSchemas) once, at `go
// generate` time, into schemas_gen.go: inferring and resolving them at every
// start cost about 2 ms of `mcp serve`'s cold start. A tool missing from the
// generated file (a new one, before go generate) is inferred at start, and
// TestGeneratedSchemasAreCurrent fails until the file is regenerated.

// inferSchemas is a tool's input schema (from In's json and jsonschema tags,
// open to extra properties, adjusted by the tool's Schema func) and its output schema.
func inferSchemas[In, Out any](spec toolSpec[In, Out]) (in, out *jsonschema.Schema, err error) {
	in, err = jsonschema.For[In](nil)
	if err != nil {
		return nil, nil, err
	}
	// Open: Gemini CLI and Qwen Code check arguments against the published
	// schema before sending, so a closed one turns a host's own argument
	// (wait_for_previous) into a client-side failure. The decoder drops
	// unknown arguments and names them in _meta (args.go).
	in.AdditionalProperties = nil
	if spec.Schema != nil {
		spec.Schema(in)
	}
	out, err = outputSchemaFor[Out]()
	return in, out, err
}

// outputSchemaFor describes what a tool puts in structuredContent: its
// result type, or on failure the error object {error, message, hint,
// details}. Clients that validate structuredContent whenever it is present
// (isError or not) must accept both.
func outputSchemaFor[Out any]() (*jsonschema.Schema, error) {
	t := reflect.TypeFor[Out]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	result, err := jsonschema.ForType(t, nil)
	if err != nil {
		return nil, err
	}
	stripDescriptions(result) // the shape is what clients check; prose costs every session's context
	return &jsonschema.Schema{Type: "object", AnyOf: []*jsonschema.Schema{result, errorSchema()}}, nil
}

// errorSchema is the structured content of every failed call (toolError).
func errorSchema() *jsonschema.Schema {
	s, _ := jsonschema.For[toolError](nil)
	s.Properties["details"] = &jsonschema.Schema{Type: "object"}
	return s
}

func stripDescriptions(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Description = ""
	for _, p := range s.Properties {
		stripDescriptions(p)
	}
	stripDescriptions(s.Items)
	stripDescriptions(s.AdditionalProperties)
	for _, x := range s.AnyOf {
		stripDescriptions(x)
	}
}

// compactJSON is v as the compact JSON tools/list carries.
func compactJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // schemas are plain data; a failure is a bug every test catches
	}
	var b bytes.Buffer
	_ = json.Compact(&b, data)
	return b.Bytes()
}
