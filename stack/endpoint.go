package stack

import (
	"fmt"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/home"
)

// NativeURL is the base URL of the stack's native API on loopback.
func (s *Spec) NativeURL() string { return fmt.Sprintf("http://127.0.0.1:%d", s.Ports["native"]) }

// Endpoints lists the stacks of h with their native URLs, for endpoint
// resolution (a loopback URL that is a stack's is that stack). A stack
// whose spec does not load is left out: it cannot be reached anyway.
func Endpoints(h home.Home) ([]endpoint.LocalStack, error) {
	names, err := List(h)
	if err != nil {
		return nil, err
	}
	var out []endpoint.LocalStack
	for _, n := range names {
		if s, err := Load(h, n); err == nil {
			out = append(out, endpoint.LocalStack{Name: n, URL: s.NativeURL()})
		}
	}
	return out, nil
}
