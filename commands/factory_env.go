package commands

import (
	"context"
	"errors"

	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// homeStacks reads the stacks of LOAMS_HOME for env export.
type homeStacks struct{ f *Factory }

func (s homeStacks) Names() ([]string, error) {
	h, err := s.f.Home()
	if err != nil {
		return nil, err
	}
	return stack.List(h)
}

// Load is the one adapter from a stack to what env export writes.
func (s homeStacks) Load(ctx context.Context, name string) (envfile.Stack, error) {
	h, err := s.f.Home()
	if err != nil {
		return envfile.Stack{}, err
	}
	spec, err := stack.LoadTrusted(h, name)
	if err != nil {
		return envfile.Stack{}, err
	}
	return stackWithKey(ctx, s.f, name, spec.EnvVars())
}

// stackWithKey adds the stack's key from the secret store; a vanished key is
// secret_missing rather than an empty LOAMS_API_KEY.
func stackWithKey(ctx context.Context, f *Factory, name string, vars []envfile.Var) (envfile.Stack, error) {
	store, err := f.SecretStore(ctx)
	if err != nil {
		return envfile.Stack{}, err
	}
	key, err := store.Get(ctx, name)
	if errors.Is(err, secret.ErrNotFound) {
		return envfile.Stack{}, errs.New(errs.SecretMissing,
			"the key is gone from the "+store.Backend()+" store; recreate the stack (`loams stack delete --name "+name+" --yes --keep-data`, then `loams stack create --name "+name+"`)",
			"stack %q has no API key in the %s store", name, store.Backend()).With("name", name).With("secrets_backend", store.Backend())
	}
	if err != nil {
		return envfile.Stack{}, err
	}
	return envfile.Stack{Name: name, Vars: vars, Key: key}, nil
}
