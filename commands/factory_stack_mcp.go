package commands

import (
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// stackMCPEndpoint names the stack whose HTTP MCP endpoint mcp install
// registers as loams-<stack>, and its URL; "" when it has no mcp engine.
// A --stack that does not exist is an error; a default_stack that has gone
// is not: loams itself still gets installed.
func (f *Factory) stackMCPEndpoint(name string) (string, string, error) {
	explicit := name != ""
	if !explicit {
		p, err := f.Profile()
		if err != nil {
			return "", "", err
		}
		name = p.DefaultStack
	}
	if name == "" {
		return "", "", nil
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
