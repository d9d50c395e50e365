package workspace

import (
	"context"
	"errors"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// Endpoint applies the endpoint rule: --endpoint > LOAMS_ENDPOINT > the
// active profile's endpoint (the project's [dev] profile is the active
// one unless --profile or LOAMS_PROFILE says otherwise) > the local stack
// the stack rule picks. A loopback URL that is a local stack's native
// endpoint is that stack.
func (w *Workspace) Endpoint() (endpoint.Endpoint, Target, error) {
	p, err := w.Profile()
	if err != nil {
		return endpoint.Endpoint{}, Target{}, err
	}
	ep, err := endpoint.Resolve(endpoint.Request{
		Flag: w.EndpointFlag, Env: w.Getenv("LOAMS_ENDPOINT"), Profile: profileOf(p),
		Locals: func() ([]endpoint.LocalStack, error) { return stack.Endpoints(w.Home) },
	})
	if err != nil {
		return ep, Target{}, err
	}
	b, _ := w.Binding()
	w.warnUnknown(b)
	t := Target{Profile: ep.Profile, Project: b.Dir, Source: endpointSource(ep.From, b, p)}
	if ep.Kind == endpoint.Remote {
		t.Endpoint = ep.URL
		return ep, t, nil
	}
	if ep.Stack == "" { // nothing named an endpoint: the stack rule decides
		st, err := w.Stack("")
		if err != nil {
			return ep, Target{}, err
		}
		ep.Stack, t = st.Stack, st
	} else {
		t.Stack = ep.Stack
	}
	if ep.URL == "" {
		spec, err := stack.Load(w.Home, ep.Stack)
		if err != nil {
			return ep, t, err
		}
		ep.URL = spec.NativeURL()
	}
	t.Profile = ""
	return ep, t, nil
}

// endpointSource maps endpoint.Resolve's "from" onto the rule's sources.
func endpointSource(from string, b Binding, p config.Profile) Source {
	switch from {
	case "--endpoint":
		return FromFlag
	case "LOAMS_ENDPOINT":
		return FromEnv
	case "profile":
		if b.Profile != "" && b.Profile == p.Name {
			return FromManifest
		}
		return FromProfile
	}
	return ""
}

// profileOf is what endpoint resolution reads from a profile. The default
// stack is left to the stack rule (Stack), which knows the project.
func profileOf(p config.Profile) endpoint.Profile {
	return endpoint.Profile{Name: p.Name, Endpoint: p.Endpoint, Namespace: p.Namespace, CACert: p.CACert, Surfaces: p.Endpoints}
}

// Key is the key requests to ep may carry, bound to the origin it belongs
// to: a local stack's own key, bound to its native URL; a remote profile's
// stored key, bound to the origin login stored it for, whatever ep is (a
// key stored before origins were recorded is bound to the profile's own
// endpoint setting in config.toml, never to --endpoint, LOAMS_ENDPOINT or
// loams.toml). A missing key is the zero Key; endpoint.Client decides
// where a key may go.
func (w *Workspace) Key(ctx context.Context, ep endpoint.Endpoint) (key endpoint.Key, backend string, err error) {
	if ep.Kind == endpoint.Local {
		store, err := w.Secrets(ctx)
		if err != nil {
			return key, "", err
		}
		s, err := store.Get(ctx, ep.Stack)
		if errors.Is(err, secret.ErrNotFound) {
			return key, store.Backend(), nil
		}
		return endpoint.BindKey(s, ep.URL), store.Backend(), err
	}
	keys, err := w.ProfileKeys(ctx)
	if err != nil {
		return key, "", err
	}
	p, err := w.ProfileNamed(ep.Profile, false)
	if err != nil {
		return key, "", err
	}
	key, err = endpoint.LoadProfileKey(ctx, keys, ep.Profile, p.Endpoint, w.Notice)
	return key, keys.Backend(), err
}

// Client is the one client for ep, with its key, namespace and CA.
func (w *Workspace) Client(ep endpoint.Endpoint, key endpoint.Key, userAgent string) (*endpoint.Client, error) {
	hint := ""
	if ep.Kind == endpoint.Local {
		hint = "start it: `loams stack start " + ep.Stack + "`"
		if w.Agent {
			hint = `call stack_start with {"name": "` + ep.Stack + `"}`
		}
	}
	return endpoint.New(ep.URL, endpoint.Options{Key: key, Namespace: ep.Namespace, CACert: ep.CACert, Getenv: w.Getenv,
		Profile: ep.Profile, UnreachableHint: hint, UserAgent: userAgent})
}

// EndpointNamed reports whether anything names an endpoint (flag,
// environment, the active profile): a resolution error then concerns that
// endpoint, not the local stacks.
func (w *Workspace) EndpointNamed() bool {
	if w.EndpointFlag != "" || w.Getenv("LOAMS_ENDPOINT") != "" {
		return true
	}
	p, err := w.Profile()
	return err == nil && p.Endpoint != ""
}
