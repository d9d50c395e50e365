package commands

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/output"
)

func TestEndpointChecks(t *testing.T) {
	url, ca, env := remoteSetup(t)
	mustRun(t, env, "", "configure", "set", "endpoint", url)
	checks := func(e map[string]string) map[string]endpointCheck {
		ios, _, _, _ := iostreams.Test()
		f := &Factory{IO: ios, Dir: t.TempDir(), Getenv: func(k string) string { return e[k] }}
		f.Globals.Profile, f.Globals.Output = "default", output.JSON
		out := map[string]endpointCheck{}
		for _, c := range endpointChecks(context.Background(), f) {
			out[c.Name] = c
		}
		return out
	}
	// No CA: reachable, TLS fails with the ca_cert fix.
	got := checks(env)
	if got["endpoint_tls"].Status != "fail" || got["endpoint_reachable"].Status != "pass" || len(got) != 2 {
		t.Fatalf("untrusted: %+v", got)
	}
	mustRun(t, env, "", "configure", "set", "ca_cert", ca)
	got = checks(env)
	if got["endpoint_tls"].Status != "pass" || got["endpoint_key"].Status != "fail" || got["endpoint_key"].Fix == "" {
		t.Fatalf("no key: %+v", got)
	}
	mustRun(t, env, remoteKey+"\n", "login", "--with-api-key")
	got = checks(env)
	for _, name := range []string{"endpoint_reachable", "endpoint_tls", "endpoint_key", "endpoint_version"} {
		if got[name].Status != "pass" {
			t.Errorf("%s: %+v", name, got[name])
		}
	}
	// A key stored for another origin is not sent, and the check says
	// where it belongs and how to log in to the new one.
	other := keyedServer(t, http.StatusOK, new(atomic.Bool))
	elsewhere := map[string]string{"LOAMS_ENDPOINT": other.URL}
	for k, v := range env {
		elsewhere[k] = v
	}
	got = checks(elsewhere)
	if k := got["endpoint_key"]; k.Status != "fail" || !strings.Contains(k.Message, url) || !strings.Contains(k.Fix, "--endpoint "+other.URL) {
		t.Fatalf("key for another origin: %+v", k)
	}
	// No remote endpoint, no endpoint checks.
	if got := checks(map[string]string{"LOAMS_HOME": t.TempDir()}); len(got) != 0 {
		t.Fatalf("local profile: %+v", got)
	}
}
