package mcpserve

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/testkit/standin"
	"loams.dev/cli/secret"
)

const profileKey = "loams_pr0f11ekey00_ProfileProfileProfileProfile0001"

// Under a profile whose endpoint is remote, stack_status lists it beside
// the local stacks, env_export without name writes its settings, and a
// named stack still means a local stack. No result holds the key.
func TestRemoteProfileTools(t *testing.T) {
	srv, ca := standin.StartTLS(t, profileKey)
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "https://" + l.Addr().String()
	l.Close()

	for _, tt := range []struct {
		name, url, state, version string
	}{
		{"reachable", srv.URL, "reachable", "0.0.1"},
		{"unreachable", dead, "unreachable", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent(t, "LOAMS_ENDPOINT="+tt.url, "SSL_CERT_FILE="+ca.PEMPath)
			storeKey(t, a.home, tt.url)
			out, isErr := a.call("stack_status", map[string]any{})
			stacks, _ := out["stacks"].([]any)
			if isErr || len(stacks) != 1 {
				t.Fatalf("stack_status: %v", out)
			}
			r := stacks[0].(map[string]any)
			if r["name"] != "default" || r["kind"] != "remote" || r["endpoint"] != tt.url || r["state"] != tt.state || r["server_version"] != tt.version {
				t.Fatalf("remote entry: %v", r)
			}
			if tt.state == "unreachable" && r["error"].(map[string]any)["code"] != "endpoint_unreachable" {
				t.Fatalf("no error code: %v", r)
			}

			res, isErr := a.call("env_export", map[string]any{})
			if isErr {
				t.Fatalf("env_export: %v", res)
			}
			data, err := os.ReadFile(filepath.Join(a.project, ".env.loams"))
			if err != nil || !strings.Contains(string(data), "LOAMS_ENDPOINT="+tt.url+"\nLOAMS_API_KEY="+profileKey+"\n") {
				t.Fatalf(".env.loams: %v\n%s", err, data)
			}
			if strings.Contains(mustJSON(res)+mustJSON(out), profileKey[19:]) {
				t.Fatal("a tool result holds the key")
			}
			// A named stack is local, whatever the profile says.
			if res, isErr := a.call("env_export", map[string]any{"name": "nope"}); !isErr || !strings.Contains(mustJSON(res), "stack_not_found") {
				t.Fatalf("named stack: %v", res)
			}
		})
	}
}

// storeKey stores profileKey for profile default as `loams login` does:
// bound to the origin of url.
func storeKey(t *testing.T, loamsHome, url string) {
	t.Helper()
	keys, err := secret.OpenProfiles(context.Background(), secret.ModeFile, home.Home{Dir: loamsHome}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := secret.Bound{Origin: string(endpoint.ParseOrigin(url)), Key: secret.New(profileKey)}
	if err := keys.SetBound(context.Background(), "default", b); err != nil {
		t.Fatal(err)
	}
}
