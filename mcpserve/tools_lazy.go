package mcpserve

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addToolsOnDemand registers the tools with the SDK on the first request
// that needs them (tools/list, tools/call) rather than at start: AddTool
// round-trips every schema through JSON, about 1 ms of a cold start that
// an initialize or server/discover never needs. The capability is
// declared without listChanged, so adding them late notifies no one.
func (s *Server) addToolsOnDemand(srv *mcp.Server) {
	var once sync.Once
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" || method == "tools/call" {
				once.Do(func() {
					for _, t := range s.enabledTools() {
						srv.AddTool(s.forMode(t.def), s.stoppable(t.handle))
					}
				})
			}
			return next(ctx, method, req)
		}
	})
}
