package commands

import (
	"context"
	"sync"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/secret"
)

// SecretStore opens the store of stack keys the profile asks for
// (`secrets = auto|keyring|file`, LOAMS_SECRETS overrides). In auto mode a
// keyring that does not answer means the file store, said once on stderr
// in table mode.
// The store is opened once per process (the keyring probe is not free),
// and both faces use it.
func (f *Factory) SecretStore(ctx context.Context) (secret.Store, error) {
	f.stacks.mu.Lock()
	defer f.stacks.mu.Unlock()
	if f.stacks.store == nil {
		store, err := f.openStore(ctx, secret.Open)
		if err != nil {
			return nil, err // not kept: a later call may find the keyring up
		}
		f.stacks.store = store
	}
	return f.stacks.store, nil
}

// storeOnce holds the two stores, each opened on first use.
type storeOnce struct {
	mu       sync.Mutex
	store    secret.Store      // stacks' keys
	profiles secret.BoundStore // remote profiles' keys
}

// openStore resolves the backend the profile asks for and opens a store of
// stack or profile keys with it.
func (f *Factory) openStore(ctx context.Context, open func(context.Context, string, home.Home, func(string)) (secret.Store, error)) (secret.Store, error) {
	h, err := f.Home()
	if err != nil {
		return nil, err
	}
	p, err := f.Profile()
	if err != nil {
		return nil, err
	}
	mode, err := secret.ResolveMode(p.Secrets, f.Getenv)
	if err != nil {
		return nil, err
	}
	var notice func(string)
	if !f.JSON() {
		// Every step that touches a key opens a store (init: three, and a
		// profile's key is a second store); the fallback is worth saying
		// once per process.
		notice = func(s string) { f.keyringNote.Do(func() { f.Notice("%s", s) }) }
	}
	return open(ctx, mode, h, notice)
}
