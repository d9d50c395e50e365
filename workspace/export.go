package workspace

import (
	"context"
	"errors"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/envfile"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// ExportSource is what env export and env_export write: the stack named
// explicitly (name, or --stack); else the endpoint rule's answer, a remote
// profile's settings or a local stack's.
func (w *Workspace) ExportSource(ctx context.Context, name string) (envfile.Stack, Target, error) {
	if name != "" || w.StackFlag != "" {
		t, err := w.Stack(name)
		if err != nil {
			return envfile.Stack{}, t, err
		}
		st, err := w.StackEnv(ctx, t.Stack)
		return st, t, err
	}
	ep, t, err := w.Endpoint()
	if err != nil && t.Source == FromWorktree { // a git worktree's own stack, on first need
		if err = w.EnsureStack(t.Stack); err == nil {
			ep, t, err = w.Endpoint()
		}
	}
	if err != nil {
		return envfile.Stack{}, t, err
	}
	if ep.Kind == endpoint.Remote {
		// The file hands the key to whatever reads LOAMS_ENDPOINT: only the
		// origin the key belongs to may be named there.
		key, _, err := w.Key(ctx, ep)
		if err != nil {
			return envfile.Stack{}, t, err
		}
		sec, err := key.For(ep.URL, ep.Profile)
		if err != nil {
			return envfile.Stack{}, t, err
		}
		st, err := envfile.RemoteEnv(envfile.Remote{Profile: ep.Profile, URL: ep.URL, Namespace: ep.Namespace, Surfaces: ep.Surfaces}, sec)
		return st, t, err
	}
	st, err := w.StackEnv(ctx, ep.Stack)
	return st, t, err
}

// StackEnv is the one adapter from a stack to what .env.loams holds: its
// variables and its key. A vanished key is secret_missing rather than an
// empty LOAMS_API_KEY.
func (w *Workspace) StackEnv(ctx context.Context, name string) (envfile.Stack, error) {
	if err := w.EnsureStack(name); err != nil { // a git worktree's own stack, on first need
		return envfile.Stack{}, err
	}
	spec, err := stack.LoadTrusted(w.Home, name)
	if err != nil {
		return envfile.Stack{}, err
	}
	store, err := w.Secrets(ctx)
	if err != nil {
		return envfile.Stack{}, err
	}
	key, err := store.Get(ctx, name)
	if errors.Is(err, secret.ErrNotFound) {
		return envfile.Stack{}, stack.MissingKey(name, store.Backend())
	}
	if err != nil {
		return envfile.Stack{}, err
	}
	return envfile.Stack{Name: name, Vars: spec.EnvVars(), Key: key}, nil
}
