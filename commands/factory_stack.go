package commands

import (
	"context"

	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// Supervisor is the process's one stack supervisor for this LOAMS_HOME
// and profile; both faces (the verbs, and `mcp serve`'s tools through the
// workspace) share it.
func (f *Factory) Supervisor() (*stack.Supervisor, error) {
	if f.sv != nil {
		return f.sv, nil
	}
	h, err := f.Home()
	if err != nil {
		return nil, err
	}
	p, err := f.Profile()
	if err != nil {
		return nil, err
	}
	f.sv = &stack.Supervisor{Home: h, Secrets: f.SecretStore, Getenv: f.Getenv, ProfileServer: p.ServerBinary,
		CreatedBy: "loams " + buildinfo.Get().Version, Now: f.Now, Notify: f.Notice}
	// What a killed snapshot, restore or clone left goes before anything
	// else reads the stacks, and the person is told.
	for _, c := range f.sv.ClearLeftovers(context.Background()) {
		f.warn("cleared %s", c)
	}
	return f.sv, nil
}

// stackAndSupervisor is how the stack verbs that act on one stack begin:
// the stack (name when given, else the target rule) and its supervisor.
func (f *Factory) stackAndSupervisor(name string) (workspace.Target, *stack.Supervisor, error) {
	t, err := f.stackTarget(name)
	if err != nil {
		return t, nil, err
	}
	sv, err := f.Supervisor()
	return t, sv, err
}

// withProgress shows a spinner on stderr (TTY only) while fn runs.
func (f *Factory) withProgress(msg string, fn func() error) error {
	stop := f.IO.Progress(msg)
	defer stop()
	return fn()
}
