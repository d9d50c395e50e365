package serverbin

import (
	"context"
	"time"

	"loams.dev/cli/endpoint"
)

// Instance is the server's answer to GetInstance; one type with the
// endpoint client's, which makes the call.
type Instance = endpoint.Instance

// Service is one Connect package the server has (or lacks: available false).
type Service = endpoint.Service

// ErrNoGetInstance is an older server without the route: fall back to --version.
var ErrNoGetInstance = endpoint.ErrNotServed

// GetInstancePath is the Connect route on the native port.
const GetInstancePath = endpoint.GetInstancePath

// instanceTimeout bounds GetInstance on loopback, where it answers in well
// under a millisecond.
const instanceTimeout = 2 * time.Second

// GetInstance asks the server at baseURL (http://127.0.0.1:8080) what it
// is, through the one endpoint client (Connect JSON, body {}, no auth;
// lowerCamelCase or snake_case). No retries: callers decide what a
// missing answer means.
func GetInstance(ctx context.Context, baseURL string) (*Instance, error) {
	c, err := endpoint.New(baseURL, endpoint.Options{RequestTimeout: instanceTimeout, Retries: -1})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	in, _, err := c.GetInstance(ctx)
	return in, err
}
