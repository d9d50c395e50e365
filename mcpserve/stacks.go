package mcpserve

import (
	"context"
	"errors"

	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// supervisor is the stack manager the stack tools share.
func (s *Server) supervisor() *stack.Supervisor {
	return &stack.Supervisor{Home: s.opts.Home, Secrets: s.secretStore, Getenv: s.opts.Getenv,
		ProfileServer: s.opts.Profile.ServerBinary, CreatedBy: "loams " + s.opts.Build.Version, Now: s.opts.Now}
}

// stackName is the named stack, else --stack, else the profile's default.
func (s *Server) stackName(name string) (string, error) {
	for _, n := range []string{name, s.opts.Stack, s.opts.Profile.DefaultStack} {
		if n != "" {
			return n, nil
		}
	}
	names, err := stack.List(s.opts.Home)
	if err == nil && len(names) == 1 {
		return names[0], nil
	}
	return "", errs.New(errs.Usage, "pass name (stack_status lists the stacks), or create one with stack_create", "no stack named and no default stack").
		ForAgent(errs.ToolCall("stack_status", nil) + " to see the stacks, then call the tool again with {\"name\": …}, or " + errs.ToolCall("stack_create", map[string]any{"name": "dev"}))
}

// stackEnv is what .env.loams is made from: the spec's variables and the key.
func (s *Server) stackEnv(ctx context.Context, name string) (envfile.Stack, error) {
	spec, err := stack.LoadTrusted(s.opts.Home, name)
	if err != nil {
		return envfile.Stack{}, err
	}
	store, err := s.secretStore(ctx)
	if err != nil {
		return envfile.Stack{}, err
	}
	key, err := store.Get(ctx, name)
	if errors.Is(err, secret.ErrNotFound) {
		return envfile.Stack{}, errs.New(errs.SecretMissing, "ask the user to recreate the stack: `loams stack delete --name "+name+" --yes --keep-data`, then `loams stack create --name "+name+"`",
			"stack %q has no API key in the %s store", name, store.Backend()).With("name", name).ForAgent(stack.RecreateForAgent(name))
	}
	if err != nil {
		return envfile.Stack{}, err
	}
	return envfile.Stack{Name: name, Vars: spec.EnvVars(), Key: key}, nil
}
