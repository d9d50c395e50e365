package commands

import (
	"context"

	"loams.dev/cli/endpoint"
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
// stacks' keys: secrets setting, LOAMS_SECRETS).
func (f *Factory) ProfileKeys(ctx context.Context) (secret.Store, error) {
	return f.openStore(ctx, secret.OpenProfiles)
}

// endpointKey is the key requests to ep carry (workspace.Key).
func (f *Factory) endpointKey(ctx context.Context, ep endpoint.Endpoint) (secret.Secret, string, error) {
	ws, err := f.Workspace()
	if err != nil {
		return secret.Secret{}, "", err
	}
	return ws.Key(ctx, ep)
}

// endpointClient is the one client for ep, with its key, namespace and CA.
func (f *Factory) endpointClient(ep endpoint.Endpoint, key secret.Secret) (*endpoint.Client, error) {
	ws, err := f.Workspace()
	if err != nil {
		return nil, err
	}
	return ws.Client(ep, key, userAgent())
}
