package commands

import (
	"context"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/secret"
	"loams.dev/cli/workspace"
)

// Endpoint is the server this command talks to, by the target rule
// (workspace.Endpoint), and where the choice came from.
func (f *Factory) Endpoint() (endpoint.Endpoint, workspace.Target, error) {
	ws, err := f.Workspace()
	if err != nil {
		return endpoint.Endpoint{}, workspace.Target{}, err
	}
	return ws.Endpoint()
}

// ProfileKeys opens the store of profile keys (same backend rules as the
// stacks' keys: secrets setting, LOAMS_SECRETS), each key with its origin.
// Opened once per process, as SecretStore.
func (f *Factory) ProfileKeys(ctx context.Context) (secret.BoundStore, error) {
	f.stacks.mu.Lock()
	defer f.stacks.mu.Unlock()
	if f.stacks.profiles != nil {
		return f.stacks.profiles, nil
	}
	var keys secret.BoundStore
	_, err := f.openStore(ctx, func(ctx context.Context, mode string, h home.Home, notice func(string)) (secret.Store, error) {
		s, err := secret.OpenProfiles(ctx, mode, h, notice)
		keys = s
		return s, err
	})
	if err != nil {
		return nil, err
	}
	f.stacks.profiles = keys
	return keys, nil
}

// endpointKey is the key requests to ep may carry, bound to its origin
// (workspace.Key); endpoint.Client decides where it may go.
func (f *Factory) endpointKey(ctx context.Context, ep endpoint.Endpoint) (endpoint.Key, string, error) {
	ws, err := f.Workspace()
	if err != nil {
		return endpoint.Key{}, "", err
	}
	return ws.Key(ctx, ep)
}

// endpointClient is the one client for ep, with its key, namespace and CA.
func (f *Factory) endpointClient(ep endpoint.Endpoint, key endpoint.Key) (*endpoint.Client, error) {
	ws, err := f.Workspace()
	if err != nil {
		return nil, err
	}
	return ws.Client(ep, key, userAgent())
}
