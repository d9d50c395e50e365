package mcpserve

import (
	"context"
	"errors"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
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

// remote resolves the endpoint of `mcp serve` (--endpoint, LOAMS_ENDPOINT,
// the profile's endpoint) and reports whether it is a remote deployment.
// Stack tools stay local whatever it says.
func (s *Server) remote() (endpoint.Endpoint, bool, error) {
	p := s.opts.Profile
	ep, err := endpoint.Resolve(endpoint.Request{
		Flag: s.opts.Endpoint, Env: s.opts.Getenv("LOAMS_ENDPOINT"),
		Profile: endpoint.Profile{Name: p.Name, Endpoint: p.Endpoint, Namespace: p.Namespace, CACert: p.CACert, Surfaces: p.Endpoints, DefaultStack: p.DefaultStack},
		Locals:  func() ([]endpoint.LocalStack, error) { return stack.Endpoints(s.opts.Home) },
	})
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
	c, err := endpoint.New(ep.URL, endpoint.Options{CACert: ep.CACert, Namespace: ep.Namespace, Getenv: s.opts.Getenv,
		Profile: ep.Profile, UserAgent: "loams/" + s.opts.Build.Version})
	if err == nil {
		defer c.Close()
		var inst *endpoint.Instance
		inst, _, err = c.GetInstance(ctx)
		switch {
		case err == nil:
			st.State, st.ServerVersion = "reachable", inst.ServerVersion
		case errors.Is(err, endpoint.ErrNotServed):
			st.State, err = "reachable", nil
		}
	}
	if err != nil {
		e := errs.As(err)
		if e.Code != errs.EndpointUnreachable && e.Code != errs.TLSError {
			st.State = "reachable"
		}
		obj := e.Object()
		st.Error = &obj
	}
	return st
}

// remoteEnv is the remote profile's .env.loams contents, made by the same
// function `loams env export` calls.
func (s *Server) remoteEnv(ctx context.Context, ep endpoint.Endpoint) (envfile.Stack, error) {
	mode, err := secret.ResolveMode(s.opts.Profile.Secrets, s.opts.Getenv)
	if err != nil {
		return envfile.Stack{}, err
	}
	notice := func(msg string) { s.log.Info(msg) }
	keys, err := secret.OpenProfiles(ctx, mode, s.opts.Home, notice)
	if err != nil {
		return envfile.Stack{}, err
	}
	// The same rule as the CLI: a key goes into a file that names its own
	// origin only, and an old key is bound to the profile's own endpoint.
	key, err := endpoint.LoadProfileKey(ctx, keys, ep.Profile, s.opts.Profile.Endpoint, notice)
	if err != nil {
		return envfile.Stack{}, err
	}
	sec, err := key.For(ep.URL, ep.Profile)
	if err != nil {
		return envfile.Stack{}, err
	}
	return envfile.RemoteEnv(envfile.Remote{Profile: ep.Profile, URL: ep.URL, Namespace: ep.Namespace, Surfaces: ep.Surfaces}, sec)
}

// exportSource is the stack env_export writes: the named one; else, under
// a remote profile, the profile's settings; else the default stack.
func (s *Server) exportSource(ctx context.Context, name string) (envfile.Stack, error) {
	if name == "" {
		if ep, isRemote, err := s.remote(); err == nil && isRemote {
			return s.remoteEnv(ctx, ep)
		}
	}
	name, err := s.stackName(name)
	if err != nil {
		return envfile.Stack{}, err
	}
	return s.stackEnv(ctx, name)
}
