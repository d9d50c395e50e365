package workspace

import (
	"context"
	"time"

	"loams.dev/cli/stack"
)

// Service is the user's service manager running one stack (`stack
// autostart`). While it owns the stack, start and stop go through it from
// either face, so two supervisors never fight over one server.
type Service interface {
	Start(ctx context.Context, sv *stack.Supervisor, wait time.Duration) (*stack.Description, error)
	Stop(ctx context.Context, sv *stack.Supervisor, grace time.Duration) (*stack.Description, error)
}

// supervisor is the process's one stack supervisor.
func (w *Workspace) supervisor() (*stack.Supervisor, error) {
	return w.Supervisor()
}

// service is the service manager that owns stack name, or nil: then the
// supervisor runs it.
func (w *Workspace) service(name string) Service {
	if w.Managed == nil {
		return nil
	}
	return w.Managed(name)
}

// Autostarted reports whether a service manager owns stack name.
func (w *Workspace) Autostarted(name string) bool { return w.service(name) != nil }

// Start starts stack name (a target ActOn chose) and waits until it is
// ready; a running stack is returned as it is. `loams stack start` and
// MCP stack_start both come here.
func (w *Workspace) Start(ctx context.Context, name string, wait time.Duration) (*stack.Description, error) {
	sv, err := w.supervisor()
	if err != nil {
		return nil, err
	}
	if s := w.service(name); s != nil {
		return s.Start(ctx, sv, wait)
	}
	return sv.Start(ctx, name, wait)
}

// Stop stops stack name; stopping a stopped stack succeeds.
func (w *Workspace) Stop(ctx context.Context, name string, grace time.Duration) (*stack.Description, error) {
	sv, err := w.supervisor()
	if err != nil {
		return nil, err
	}
	if s := w.service(name); s != nil {
		return s.Stop(ctx, sv, grace)
	}
	return sv.Stop(ctx, name, grace)
}

// Describe is stack name's state.
func (w *Workspace) Describe(ctx context.Context, name string) (*stack.Description, error) {
	sv, err := w.supervisor()
	if err != nil {
		return nil, err
	}
	return sv.Describe(ctx, name)
}
