package commands

import (
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// stackMCPEndpoint names the stack whose HTTP MCP endpoint mcp install
// registers as loams-<stack>, and its URL; "" when it has no mcp engine.
// A --stack that does not exist is an error; without one the target rule
// picks the stack, and when it has no answer (no stack, several, a binding
// to one that has gone) loams itself still gets installed.
func (f *Factory) stackMCPEndpoint(name string) (string, string, error) {
	explicit := name != ""
	if !explicit {
		ws, err := f.Workspace()
		if err != nil {
			return "", "", err
		}
		t, err := ws.Stack("")
		if err != nil {
			return "", "", nil
		}
		name = t.Stack
	}
	h, err := f.Home()
	if err != nil {
		return "", "", err
	}
	s, err := stack.Load(h, name)
	if !explicit && errs.Is(err, errs.StackNotFound) {
		return "", "", nil
	}
	if err != nil {
		return "", "", err
	}
	if url := s.MCPURL(); url != "" {
		return name, url, nil
	}
	return "", "", nil
}
