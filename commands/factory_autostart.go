package commands

import (
	"loams.dev/cli/autostart"
	"loams.dev/cli/workspace"
)

// autostart wires this invocation into the autostart of its LOAMS_HOME's
// stacks; what the service manager does lives in autostart/.
func (f *Factory) autostart() *autostart.Stacks {
	return &autostart.Stacks{Home: f.Home, Getenv: f.Getenv, OS: testAutostartOS(f.Getenv), Supervisor: f.Supervisor, Notice: f.Notice,
		Executable: func() (string, error) {
			exe, err := f.executable()
			return f.stableExecutable(exe), err
		}}
}

// managedBy is the workspace's view of the stacks a service manager owns:
// through it both faces start and stop them.
func managedBy(s *autostart.Stacks) func(string) workspace.Service {
	return func(name string) workspace.Service {
		if r := s.Managed(name); r != nil {
			return r
		}
		return nil // not a typed nil: the workspace tests for nil
	}
}
