package commands

import (
	"context"
	"errors"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// Endpoint resolves the server this command talks to: --endpoint >
// LOAMS_ENDPOINT > the profile's endpoint > the default stack (else the
// only stack).
func (f *Factory) Endpoint() (endpoint.Endpoint, error) {
	p, err := f.Profile()
	if err != nil {
		return endpoint.Endpoint{}, err
	}
	ep, err := endpoint.Resolve(endpoint.Request{
		Flag: f.Globals.Endpoint, Env: f.Getenv("LOAMS_ENDPOINT"), Profile: endpointProfile(p),
		Locals: f.localStacks,
	})
	if err != nil {
		return ep, err
	}
	if ep.Kind == endpoint.Local && ep.URL == "" {
		if ep.Stack == "" {
			if ep.Stack, err = pickStack(f, "", homeStacks{f}); err != nil {
				return ep, err
			}
		}
		h, err := f.Home()
		if err != nil {
			return ep, err
		}
		spec, err := stack.Load(h, ep.Stack)
		if err != nil {
			return ep, err
		}
		ep.URL = spec.NativeURL()
	}
	return ep, nil
}

// endpointProfile is what endpoint resolution reads from a profile.
func endpointProfile(p config.Profile) endpoint.Profile {
	return endpoint.Profile{Name: p.Name, Endpoint: p.Endpoint, Namespace: p.Namespace, CACert: p.CACert,
		Surfaces: p.Endpoints, DefaultStack: p.DefaultStack}
}

func (f *Factory) localStacks() ([]endpoint.LocalStack, error) {
	h, err := f.Home()
	if err != nil {
		return nil, err
	}
	return stack.Endpoints(h)
}

// ProfileKeys opens the store of profile keys (same backend rules as the
// stacks' keys: secrets setting, LOAMS_SECRETS).
func (f *Factory) ProfileKeys(ctx context.Context) (secret.Store, error) {
	return f.openStore(ctx, secret.OpenProfiles)
}

// endpointKey is the key requests to ep carry: the profile's stored key
// for a remote endpoint, the stack's own key for a local one. A missing
// key is the zero Secret; the server decides whether it needs one.
func (f *Factory) endpointKey(ctx context.Context, ep endpoint.Endpoint) (key secret.Secret, backend string, err error) {
	var store secret.Store
	name := ep.Profile
	if ep.Kind == endpoint.Local {
		store, name = nil, ep.Stack
		if store, err = f.SecretStore(ctx); err != nil {
			return key, "", err
		}
	} else if store, err = f.ProfileKeys(ctx); err != nil {
		return key, "", err
	}
	key, err = store.Get(ctx, name)
	if errors.Is(err, secret.ErrNotFound) {
		return secret.Secret{}, store.Backend(), nil
	}
	return key, store.Backend(), err
}

// endpointClient is the one client for ep, with its key, namespace and CA.
func (f *Factory) endpointClient(ep endpoint.Endpoint, key secret.Secret) (*endpoint.Client, error) {
	hint := ""
	if ep.Kind == endpoint.Local {
		hint = "start it: `loams stack start --name " + ep.Stack + "`"
	}
	return endpoint.New(ep.URL, endpoint.Options{Key: key, Namespace: ep.Namespace, CACert: ep.CACert, Getenv: f.Getenv,
		Profile: ep.Profile, UnreachableHint: hint, UserAgent: "loams/" + buildinfo.Get().Version})
}
