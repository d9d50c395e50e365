package commands

import (
	"context"
	"errors"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/home"
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
// stacks' keys: secrets setting, LOAMS_SECRETS), each key with its origin.
func (f *Factory) ProfileKeys(ctx context.Context) (secret.BoundStore, error) {
	var keys secret.BoundStore
	_, err := f.openStore(ctx, func(ctx context.Context, mode string, h home.Home, notice func(string)) (secret.Store, error) {
		s, err := secret.OpenProfiles(ctx, mode, h, notice)
		keys = s
		return s, err
	})
	return keys, err
}

// endpointKey is the key requests to ep may carry, bound to the origin it
// belongs to: the profile's stored key for a remote endpoint (bound to the
// origin login stored it for, whatever ep is), the stack's own key for a
// local one. A missing key is the zero Key; the server decides whether it
// needs one, and endpoint.Client decides where the key may go.
func (f *Factory) endpointKey(ctx context.Context, ep endpoint.Endpoint) (key endpoint.Key, backend string, err error) {
	if ep.Kind == endpoint.Local {
		store, err := f.SecretStore(ctx)
		if err != nil {
			return key, "", err
		}
		s, err := store.Get(ctx, ep.Stack)
		if errors.Is(err, secret.ErrNotFound) {
			return key, store.Backend(), nil
		}
		return endpoint.BindKey(s, ep.URL), store.Backend(), err
	}
	keys, err := f.ProfileKeys(ctx)
	if err != nil {
		return key, "", err
	}
	p, err := f.Profile()
	if err != nil {
		return key, "", err
	}
	var notice func(string)
	if !f.JSON() {
		notice = func(msg string) { f.say("%s", msg) }
	}
	key, err = endpoint.LoadProfileKey(ctx, keys, ep.Profile, p.Endpoint, notice)
	return key, keys.Backend(), err
}

// endpointClient is the one client for ep, with its key, namespace and CA.
func (f *Factory) endpointClient(ep endpoint.Endpoint, key endpoint.Key) (*endpoint.Client, error) {
	hint := ""
	if ep.Kind == endpoint.Local {
		hint = "start it: `loams stack start --name " + ep.Stack + "`"
	}
	return endpoint.New(ep.URL, endpoint.Options{Key: key, Namespace: ep.Namespace, CACert: ep.CACert, Getenv: f.Getenv,
		Profile: ep.Profile, UnreachableHint: hint, UserAgent: "loams/" + buildinfo.Get().Version})
}
