package mcpserve

import (
	"context"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/workspace"
)

// remoteStatus is how stack_status lists a remote endpoint beside the
// local stacks (endpoints.md). It never holds the key.
type remoteStatus struct {
	Name          string        `json:"name"` // the profile
	Kind          endpoint.Kind `json:"kind"` // "remote"
	Endpoint      string        `json:"endpoint"`
	State         string        `json:"state"` // reachable | unreachable
	ServerVersion string        `json:"server_version"`
	Error         *errs.Object  `json:"error,omitempty"`
}

// remote resolves the endpoint by the target rule and reports whether it
// is a remote deployment. Stack tools stay local whatever it says.
func (s *Server) remote() (endpoint.Endpoint, bool, error) {
	ep, _, err := s.workspace().Endpoint()
	if err != nil {
		return ep, false, err
	}
	return ep, ep.Kind == endpoint.Remote, nil
}

// remoteStatusOf asks the endpoint GetInstance through the one client. No
// key is loaded: GetInstance needs none, and a tool that never holds the
// key cannot leak it.
func (s *Server) remoteStatusOf(ctx context.Context, ep endpoint.Endpoint) remoteStatus {
	st := remoteStatus{Name: ep.Profile, Kind: endpoint.Remote, Endpoint: ep.URL, State: "unreachable"}
	c, err := s.workspace().Client(ep, endpoint.Key{}, "loams/"+s.opts.Build.Version)
	if err == nil {
		defer c.Close()
		r := workspace.Probe(ctx, c) // the same check as `loams status`
		if r.Reachable {
			st.State = "reachable"
		}
		if r.Instance != nil {
			st.ServerVersion = r.Instance.ServerVersion
		}
		err = r.Err
	}
	if err != nil {
		e := errs.As(err)
		obj := e.Object()
		obj.Hint = s.words().Text(e.HintFor(true)) // a hint in a result, kept to the mode as errors are
		st.Error = &obj
	}
	return st
}
