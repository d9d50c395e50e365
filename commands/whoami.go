package commands

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// whoamiJSON names the profile, endpoint and key id; Identity is the
// server's WhoAmI answer, null when the server does not serve it.
type whoamiJSON struct {
	Profile  string        `json:"profile"`
	Endpoint string        `json:"endpoint"`
	Kind     endpoint.Kind `json:"kind"`
	Stack    string        `json:"stack,omitempty"`
	KeyID    string        `json:"key_id"`
	// KeyOrigin is the only origin the key is sent to.
	KeyOrigin string           `json:"key_origin"`
	Identity  map[string]any   `json:"identity"`
	Target    workspace.Target `json:"target"`
}

func newWhoAmICmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "whoami",
		Usage: "Show the profile, endpoint and API key id in use, and who the server says you are",
		Description: describe("The key itself is never shown, only its public id and the origin it is bound\n"+
			"to. A key stored for another origin than the endpoint's is not sent: whoami fails\n"+
			"with unauthenticated (exit 8) and names both.",
			"loams whoami", "loams --profile staging whoami --output json"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return errs.New(errs.Usage, "run `loams whoami --help`", "whoami takes no arguments, got %q", cmd.Args().First())
			}
			return runWhoAmI(ctx, f)
		},
	}
}

func runWhoAmI(ctx context.Context, f *Factory) error {
	ep, target, err := f.Endpoint()
	if err != nil {
		return err
	}
	f.sayTarget(target)
	key, backend, err := f.endpointKey(ctx, ep)
	if err != nil {
		return err
	}
	if key.IsZero() {
		if ep.Kind == endpoint.Local {
			return stack.MissingKey(ep.Stack, backend)
		}
		return errs.New(errs.Unauthenticated, "log in: `loams login --with-api-key --profile "+ep.Profile+"` (the key is read from stdin)",
			"profile %q has no stored API key for %s", ep.Profile, ep.URL).With("profile", ep.Profile).With("endpoint", ep.URL)
	}
	out := whoamiJSON{Profile: ep.Profile, Endpoint: ep.URL, Kind: ep.Kind, KeyID: key.Secret.KeyID(), KeyOrigin: string(key.Origin), Target: target}
	if ep.Kind == endpoint.Local {
		out.Stack = ep.Stack
	}
	c, err := f.endpointClient(ep, key)
	if err != nil {
		return err
	}
	defer c.Close()
	// A key stored for another origin is not sent: whoami asks nothing.
	if err := c.KeyError(); err != nil {
		return err
	}
	who, err := c.WhoAmI(ctx)
	if err != nil && !errors.Is(err, endpoint.ErrNotServed) {
		return err
	}
	out.Identity = who
	rows := [][]string{{"profile", out.Profile}, {"endpoint", out.Endpoint}, {"key id", out.KeyID}, {"key sent only to", out.KeyOrigin}}
	keys := make([]string, 0, len(who))
	for k := range who {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		rows = append(rows, []string{k, fmt.Sprint(who[k])})
	}
	if who == nil {
		rows = append(rows, []string{"identity", "(the server does not serve WhoAmI)"})
	}
	return f.Printer().Print(output.View{JSON: out, Rows: rows})
}
