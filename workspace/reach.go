package workspace

import (
	"context"
	"errors"
	"time"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/errs"
)

// Reach is what one GetInstance says about an endpoint: `loams status`
// and MCP stack_status both ask Probe, so they call the same server up or
// down.
type Reach struct {
	Reachable bool
	// Instance is the server's answer; nil when it does not serve
	// GetInstance (an older server: it is up all the same) or failed.
	Instance *endpoint.Instance
	Latency  time.Duration
	// Err is why the answer is not a clean one (nil when it is): the
	// server may still be reachable (an auth or server error).
	Err error
}

// Probe asks c's endpoint GetInstance. Only a connection that never
// reached a server (unreachable, TLS) counts as unreachable.
func Probe(ctx context.Context, c *endpoint.Client) Reach {
	inst, latency, err := c.GetInstance(ctx)
	r := Reach{Latency: latency}
	switch {
	case err == nil:
		r.Reachable, r.Instance = true, inst
	case errors.Is(err, endpoint.ErrNotServed):
		r.Reachable = true
	default:
		e := errs.As(err)
		r.Reachable = e.Code != errs.EndpointUnreachable && e.Code != errs.TLSError && e.Code != errs.Internal
		r.Err = err
	}
	return r
}
