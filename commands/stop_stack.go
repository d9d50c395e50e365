package commands

import (
	"context"
	"time"

	"loams.dev/cli/stack"
)

// stopStack stops a stack itself, or through the service manager that
// runs it (`stack autostart`).
func (f *Factory) stopStack(ctx context.Context, sv *stack.Supervisor, name string, grace time.Duration) (*stack.Description, error) {
	if r := f.managed(name); r != nil {
		return f.stopManaged(ctx, r, sv, grace)
	}
	return sv.Stop(ctx, name, grace)
}
