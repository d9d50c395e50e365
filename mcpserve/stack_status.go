package mcpserve

import (
	"context"

	"loams.dev/cli/internal/errs"
)

type stackStatusInput struct {
	Name string `json:"name,omitempty" jsonschema:"stack name; omit for all"`
}

// stackStatus lists *stack.Description for local stacks and, under a
// profile with a remote endpoint, one remoteStatus beside them.
type stackStatus struct {
	Stacks []any `json:"stacks"`
}

func (s *Server) stackStatusTool() tool {
	return newTool(toolSpec[stackStatusInput, stackStatus]{
		Name:  "stack_status",
		Title: "Local stack status",
		Description: "List local stacks (or one) with state, endpoints and the variable names env_export writes. " +
			"Use it before stack_create or stack_start, and when an app cannot connect. Crashed stacks include log lines. " +
			"Under a profile with a remote Loams endpoint, that endpoint is listed too (kind \"remote\").",
		Annotations: annotations(readOnly, notDestructive, idempotent, closedWorld),
		Schema:      func(sc *jsonschemaSchema) { stackNameSchema(sc, "name") },
		Run: func(ctx context.Context, in stackStatusInput) (stackStatus, error) {
			ep, isRemote, rerr := s.remote()
			if isRemote && in.Name == ep.Profile {
				return stackStatus{Stacks: []any{s.remoteStatusOf(ctx, ep)}}, nil
			}
			ds, err := s.supervisor().Status(ctx, in.Name)
			if err != nil {
				return stackStatus{}, err
			}
			out := stackStatus{Stacks: []any{}}
			for _, d := range ds {
				out.Stacks = append(out.Stacks, d)
			}
			if isRemote && in.Name == "" {
				out.Stacks = append(out.Stacks, s.remoteStatusOf(ctx, ep))
			} else if rerr != nil && in.Name == "" {
				s.log.Info("endpoint not resolved", "error", errs.As(rerr).Message)
			}
			return out, nil
		},
	})
}
