package mcpserve

import (
	"context"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

type stackStatusInput struct {
	Name string `json:"name,omitempty" jsonschema:"stack name; omit for all"`
}

// stackStatus lists *stack.Description for local stacks and, under a
// profile with a remote endpoint, one remoteStatus beside them.
type stackStatus struct {
	Stacks []any `json:"stacks"`
	// Target is the stack (or endpoint) the other tools use when no name
	// is given, and why; absent when the rule has no answer (no stacks, or
	// several and nothing chooses).
	Target *workspace.Target `json:"target,omitempty"`
}

// projectStack is a local stack's description, marked when it is the one
// the target rule picks for this project.
type projectStack struct {
	*stack.Description
	Target bool `json:"target,omitempty"`
	// Autostart is on when the user's service manager owns the stack
	// (`loams stack autostart`): stack_start then goes through it.
	Autostart string `json:"autostart"`
}

func (s *Server) stackStatusTool() tool {
	return newTool(toolSpec[stackStatusInput, stackStatus]{
		Name:  "stack_status",
		Title: "Local stack status",
		Description: "List local stacks (or one): state, endpoints, variable names; target is this project's stack. " +
			"Use it before stack_create or stack_start, and when an app cannot connect. Crashed stacks include log lines. " +
			"Lists a remote profile's endpoint as kind \"remote\".",
		Annotations: annotations(readOnly, notDestructive, idempotent, closedWorld),
		Schema:      func(sc *jsonschemaSchema) { stackNameSchema(sc, "name") },
		Run: func(ctx context.Context, in stackStatusInput) (stackStatus, error) {
			ep, isRemote, rerr := s.remote()
			if isRemote && in.Name == ep.Profile {
				return stackStatus{Stacks: []any{s.remoteStatusOf(ctx, ep)}}, nil
			}
			sv, err := s.supervisor()
			if err != nil {
				return stackStatus{}, err
			}
			ds, err := sv.Status(ctx, in.Name)
			if err != nil {
				return stackStatus{}, err
			}
			out := stackStatus{Stacks: []any{}}
			if in.Name != "" {
				out.Target = &workspace.Target{Stack: in.Name, Source: workspace.FromArgument}
			} else if _, t, err := s.workspace().Endpoint(); err == nil {
				out.Target = &t
			}
			for _, d := range ds {
				auto := "off"
				if s.workspace().Autostarted(d.Name) {
					auto = "on"
				}
				out.Stacks = append(out.Stacks, projectStack{Description: d, Target: out.Target != nil && out.Target.Stack == d.Name, Autostart: auto})
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
