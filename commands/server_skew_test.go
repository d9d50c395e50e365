package commands

import (
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// A CLI at 0.3.1 works with a 0.0.1 server but says so: a notice on
// stderr in table mode, compatibility "older" in JSON. A dev build skips
// the check.
func TestServerVersionSkew(t *testing.T) {
	t.Parallel()
	cli := testbin.Build(t, "./cmd/loams", "-X loams.dev/cli/internal/buildinfo.version=0.3.1")
	env := cliEnv(t)
	if _, errOut, code := run(t, env, cli, "stack", "create", "--name", "dev", "--port-base", portBase(t), "--engines", "qdrant"); code != 0 ||
		!strings.Contains(errOut, "notice: Loams server 0.0.1 is older than this loams supports fully") {
		t.Fatalf("create: exit %d, stderr %s", code, errOut)
	}
	defer run(t, env, cli, "stack", "stop", "--name", "dev", "--grace", "2s")
	out, errOut, _ := run(t, env, cli, "stack", "describe", "--name", "dev", "-o", "json")
	if !strings.Contains(out, `"compatibility": "older"`) || !strings.Contains(out, `"edition": "standard"`) || errOut != "" {
		t.Errorf("describe json: %s\nstderr: %s", out, errOut)
	}
	if out, _, _ := run(t, env, cli, "stack", "describe", "--name", "dev"); !strings.Contains(out, "loams.instance.v1") {
		t.Errorf("describe table lists no services:\n%s", out)
	}
	if out, _, _ := run(t, env, testbin.Loams(t), "stack", "describe", "--name", "dev", "-o", "json"); strings.Contains(out, "compatibility") {
		t.Errorf("a dev build must skip the check: %s", out)
	}
}
