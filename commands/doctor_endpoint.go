package commands

import (
	"context"
	"errors"
	"fmt"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/serverbin"
)

// endpointCheck is one line of `loams doctor` about the profile's remote
// endpoint: pass, warn or fail with a one-line fix (server.md).
type endpointCheck struct {
	Name    string `json:"name"`
	Status  string `json:"status"` // pass | warn | fail
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// endpointChecks checks a remote endpoint: reachable, TLS valid, key
// accepted, version skew. Read-only: one GetInstance and one WhoAmI. No
// remote endpoint, no checks (local stacks have their own).
func endpointChecks(ctx context.Context, f *Factory) []endpointCheck {
	ws, err := f.Workspace()
	if err != nil {
		return nil
	}
	ep, _, err := ws.Endpoint()
	if err != nil {
		if ws.EndpointNamed() {
			e := errs.As(err)
			return []endpointCheck{{Name: "endpoint", Status: "fail", Message: e.Message, Fix: e.Hint}}
		}
		return nil
	}
	if ep.Kind != endpoint.Remote {
		return nil
	}
	key, _, kerr := f.endpointKey(ctx, ep)
	c, err := f.endpointClient(ep, key)
	if err != nil {
		e := errs.As(err)
		return []endpointCheck{{Name: "endpoint", Status: "fail", Message: e.Message, Fix: e.Hint}}
	}
	defer c.Close()
	inst, latency, err := c.GetInstance(ctx)
	reach := endpointCheck{Name: "endpoint_reachable", Status: "pass", Message: fmt.Sprintf("%s answered in %d ms", ep.URL, latency.Milliseconds())}
	tls := endpointCheck{Name: "endpoint_tls", Status: "pass", Message: "the certificate of " + ep.URL + " is valid and trusted"}
	if ep.URL[:5] == "http:" {
		tls.Message = ep.URL + " is on loopback: plain http is allowed"
	}
	switch {
	case errs.Is(err, errs.TLSError):
		e := errs.As(err)
		reach = endpointCheck{Name: "endpoint_reachable", Status: "pass", Message: ep.URL + " answers, over TLS loams does not trust"}
		tls = endpointCheck{Name: "endpoint_tls", Status: "fail", Message: e.Message, Fix: e.Hint}
		return []endpointCheck{reach, tls}
	case err != nil && !errors.Is(err, endpoint.ErrNotServed):
		e := errs.As(err)
		reach = endpointCheck{Name: "endpoint_reachable", Status: "fail", Message: e.Message, Fix: e.Hint}
		return []endpointCheck{reach}
	}
	out := []endpointCheck{reach, tls, keyCheck(ctx, ep, c, key.IsZero(), kerr)}
	version := ""
	if inst != nil {
		version = inst.ServerVersion
	}
	skew := endpointCheck{Name: "endpoint_version", Status: "pass", Message: "server " + orDash(version) + ", compatible with loams " + buildinfo.Get().Version}
	switch compatibility(version) {
	case serverbin.Older:
		skew.Status, skew.Message, skew.Fix = "warn", "server "+version+" is older than this loams supports fully", "ask the deployment's operator to upgrade the server"
	case serverbin.Newer:
		skew.Status, skew.Message, skew.Fix = "warn", "server "+version+" is newer than this loams knows", "upgrade loams (`loams update`, or `git pull && go install ./cmd/loams` in your clone: no release is published yet)"
	case "unknown":
		skew.Status, skew.Message = "warn", "the server did not say its version (no GetInstance)"
	case "unchecked":
		skew.Message = "this is a dev build of loams: version skew is not checked"
	}
	return append(out, skew)
}

func keyCheck(ctx context.Context, ep endpoint.Endpoint, c *endpoint.Client, missing bool, storeErr error) endpointCheck {
	check := endpointCheck{Name: "endpoint_key"}
	login := "`loams login --with-api-key --profile " + ep.Profile + "` (the key is read from stdin)"
	switch {
	case storeErr != nil:
		e := errs.As(storeErr)
		check.Status, check.Message, check.Fix = "fail", e.Message, e.Hint
	case missing:
		check.Status, check.Message, check.Fix = "fail", "profile "+ep.Profile+" has no stored API key", login
	case c.KeyError() != nil: // stored for another origin: it is not sent here
		e := errs.As(c.KeyError())
		check.Status, check.Message, check.Fix = "fail", e.Message, e.Hint
	default:
		_, err := c.WhoAmI(ctx)
		switch {
		case err == nil:
			check.Status, check.Message = "pass", "the server accepts the stored key"
		case errors.Is(err, endpoint.ErrNotServed):
			check.Status, check.Message = "warn", "a key is stored; the server has no WhoAmI, so it cannot be checked before use"
		default:
			e := errs.As(err)
			check.Status, check.Message, check.Fix = "fail", e.Message, e.Hint
		}
	}
	return check
}
