package commands

import (
	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/config"
)

// serveArgs are the global flags `mcp install` passes on to the agent's
// `loams mcp serve`: a profile other than the default (which must exist: an
// agent cannot answer a prompt about a typo) and an explicit --endpoint.
func (f *Factory) serveArgs() ([]string, error) {
	var args []string
	if f.Globals.ProfileExplicit && f.Globals.Profile != config.DefaultProfile {
		if _, err := f.Profile(); err != nil {
			return nil, err
		}
		args = append(args, "--profile", f.Globals.Profile)
	}
	if f.Globals.Endpoint != "" {
		// Checked as every command checks it (no user:password part, no
		// plain http off loopback) before it lands in an agent's config.
		t, err := endpoint.ParseTarget(f.Globals.Endpoint)
		if err != nil {
			return nil, err
		}
		args = append(args, "--endpoint", t.String())
	}
	return args, nil
}
