package mcpserve

import (
	"context"

	"loams.dev/cli/stack"
)

type stackStartInput struct {
	Name string `json:"name" jsonschema:"the stack to start"`
}

func (s *Server) stackStartTool() tool {
	return newTool(toolSpec[stackStartInput, *stack.Description]{
		Name:  "stack_start",
		Title: "Start a local stack",
		Description: "Start a stopped or crashed stack and wait (up to 60 s) until it is ready; a running one is returned " +
			"as is. On failure the error carries the server's last log lines.",
		Annotations: annotations(writes, notDestructive, idempotent, closedWorld),
		Schema: func(sc *jsonschemaSchema) {
			stackNameSchema(sc, "name")
			sc.Required = []string{"name"}
		},
		Run: func(ctx context.Context, in stackStartInput) (*stack.Description, error) {
			return s.supervisor().Start(ctx, in.Name, stack.DefaultWait)
		},
	})
}
