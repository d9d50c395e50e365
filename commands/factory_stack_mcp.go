package commands

// stackMCPEndpoint names the stack whose HTTP MCP endpoint mcp install
// registers as loams-<stack>, and its URL; "" when it has no mcp engine.
func (f *Factory) stackMCPEndpoint(name string) (stack, url string, err error) {
	return "", "", nil // wired to stack.Load once the stack package lands
}
