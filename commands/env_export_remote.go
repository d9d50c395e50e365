package commands

import (
	"context"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/envfile"
)

// exportSource is what env export writes: the stack named by --stack; else
// the resolved endpoint's settings when it is a remote deployment; else
// the default (or only) stack, as before endpoints existed.
func exportSource(ctx context.Context, f *Factory, opts *envExportOptions) (envfile.Stack, error) {
	if opts.Stack == "" {
		ep, err := f.Endpoint()
		switch {
		case err != nil && f.remoteConfigured():
			return envfile.Stack{}, err
		case err == nil && ep.Kind == endpoint.Remote:
			// The file hands the key to whatever reads LOAMS_ENDPOINT: only
			// the origin the key belongs to may be named there.
			key, _, err := f.endpointKey(ctx, ep)
			if err != nil {
				return envfile.Stack{}, err
			}
			sec, err := key.For(ep.URL, ep.Profile)
			if err != nil {
				return envfile.Stack{}, err
			}
			return envfile.RemoteEnv(envfile.Remote{Profile: ep.Profile, URL: ep.URL, Namespace: ep.Namespace, Surfaces: ep.Surfaces}, sec)
		case err == nil && ep.Stack != "":
			opts.Stack = ep.Stack // LOAMS_ENDPOINT or --endpoint named a local stack
		}
	}
	name, err := pickStack(f, opts.Stack, opts.Stacks)
	if err != nil {
		return envfile.Stack{}, err
	}
	return opts.Stacks.Load(ctx, name)
}

// remoteConfigured reports whether anything names an endpoint; when
// nothing does, a resolution error (no stacks yet) is left to the stack
// path, which words it for stacks.
func (f *Factory) remoteConfigured() bool {
	if f.Globals.Endpoint != "" || f.Getenv("LOAMS_ENDPOINT") != "" {
		return true
	}
	p, err := f.Profile()
	return err == nil && p.Endpoint != ""
}
