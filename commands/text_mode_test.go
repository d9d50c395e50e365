package commands

import (
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// status -o text: the json's keys, latency in integer milliseconds, one
// field per cell (the table's "12 ms" and "local (stack dev)" are for people).
func TestStatusText(t *testing.T) {
	t.Parallel()
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SECRETS": "file",
		"LOAMS_SERVER_BINARY": testbin.Build(t, "./internal/testkit/testserver")}
	if r := runLoams(t, env, false, "stack", "create", "dev", "--engines", "qdrant", "--port-base", portBase(t)); r.code != 0 {
		t.Fatalf("create: %s", r.stderr)
	}
	defer runLoams(t, env, false, "stack", "stop", "dev", "--grace", "2s")
	r := runLoams(t, env, false, "-o", "text", "status")
	fields := map[string]int{"endpoint": 2, "kind": 2, "stack": 2, "profile": 2, "reachable": 2, "latency_ms": 2,
		"server_version": 2, "edition": 2, "services": 2, "compatibility": 2}
	checkTSV(t, r.stdout, fields)
	if !strings.Contains(r.stdout, "kind\tlocal\n") || !strings.Contains(r.stdout, "reachable\ttrue\n") || !strings.Contains(r.stdout, "latency_ms\t") {
		t.Errorf("status text:\n%s", r.stdout)
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		if v, ok := strings.CutPrefix(line, "latency_ms\t"); ok && strings.Trim(v, "0123456789") != "" {
			t.Errorf("latency %q is not integer milliseconds", v)
		}
	}
}
