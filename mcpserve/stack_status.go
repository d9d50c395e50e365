package mcpserve

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/stack"
)

type stackStatusInput struct {
	Name string `json:"name,omitempty" jsonschema:"stack name; omit for all"`
}

type stackStatus struct {
	Stacks []*stack.Description `json:"stacks"`
}

func (s *Server) stackStatusTool() tool {
	return newTool(toolSpec[stackStatusInput, stackStatus]{
		Name:  "stack_status",
		Title: "Local stack status",
		Description: "List local stacks (or one) with state, endpoints and the variable names env_export writes. " +
			"Use it before stack_create or stack_start, and when an app cannot connect. Crashed stacks include log lines.",
		Annotations: mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: no()},
		Schema:      func(sc *jsonschemaSchema) { stackNameSchema(sc, "name") },
		Run: func(ctx context.Context, in stackStatusInput) (stackStatus, error) {
			ds, err := s.supervisor().Status(ctx, in.Name)
			return stackStatus{Stacks: ds}, err
		},
	})
}
