package mcpserve

import (
	"github.com/google/jsonschema-go/jsonschema"

	"loams.dev/cli/internal/config"
)

// jsonschemaSchema is short for the schema type tool files adjust.
type jsonschemaSchema = jsonschema.Schema

// stackNameSchema bounds a stack-name property by the name rule.
func stackNameSchema(sc *jsonschema.Schema, prop string) {
	p := sc.Properties[prop]
	p.Pattern = config.StackName().String()
	p.MaxLength = intPtr(31)
}

func enumOf(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

func intPtr(n int) *int           { return &n }
func floatPtr(f float64) *float64 { return &f }
