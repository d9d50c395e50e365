package mcpserve

import (
	"context"

	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

type stackStartInput struct {
	Name string `json:"name,omitempty" jsonschema:"stack name; omit for the project's"`
}

// stackStarted is the started stack and how it was chosen.
type stackStarted struct {
	*stack.Description
	Target workspace.Target `json:"target"`
}

func (s *Server) stackStartTool() tool {
	return newTool(toolSpec[stackStartInput, stackStarted]{
		Name:  "stack_start",
		Title: "Start a local stack",
		Description: "Start a stopped or crashed local stack (database, search engine) and wait (up to 60 s) until it " +
			"is ready; a running one is returned as is. Errors carry the server's last log lines.",
		Annotations: annotations(writes, notDestructive, idempotent, closedWorld),
		Schema: func(sc *jsonschemaSchema) {
			stackNameSchema(sc, "name")
		},
		Run: func(ctx context.Context, in stackStartInput) (stackStarted, error) {
			t, err := s.workspace().ToStart(in.Name)
			if err != nil {
				return stackStarted{}, err
			}
			// The same function as `loams stack start`: through the service
			// manager when autostart owns the stack.
			d, err := s.workspace().Start(ctx, t.Stack, stack.DefaultWait)
			return stackStarted{Description: d, Target: t}, err
		},
	})
}
