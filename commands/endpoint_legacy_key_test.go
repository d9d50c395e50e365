package commands

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"loams.dev/cli/secret"
)

// A key stored before keys were bound (a bare key in the store) is bound
// at first use to the profile's own endpoint — not to the --endpoint of
// that first command — and the binding is said once.
func TestLegacyKeyBoundToTheProfileEndpointOnce(t *testing.T) {
	var refuse atomic.Bool
	home := keyedServer(t, http.StatusOK, &refuse)
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := r.Header.Get("Authorization"); a != "" {
			mu.Lock()
			leaked = append(leaked, a)
			mu.Unlock()
		}
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(other.Close)
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SECRETS": "file"}
	mustRun(t, env, "", "configure", "set", "endpoint", home.URL)
	keys, err := secret.OpenProfiles(context.Background(), secret.ModeFile, homeOf(env), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := keys.Set(context.Background(), "default", secret.New(remoteKey)); err != nil { // as loams 0.0.7 stored it
		t.Fatal(err)
	}

	r := runIn(t, env, "", "--endpoint", other.URL, "whoami")
	mu.Lock()
	defer mu.Unlock()
	if r.code != 8 || len(leaked) != 0 {
		t.Fatalf("first use through --endpoint: exit %d, %d requests with the key\n%s", r.code, len(leaked), r.stderr)
	}
	if !strings.Contains(r.stderr, "was stored before loams bound keys to an endpoint; it is now bound to "+home.URL) {
		t.Fatalf("no notice of the binding:\n%s", r.stderr)
	}
	if b, _ := keys.GetBound(context.Background(), "default"); b.Origin != home.URL {
		t.Fatalf("bound to %q; want the profile's endpoint %s", b.Origin, home.URL)
	}
	r = mustRun(t, env, "", "whoami")
	if strings.Contains(r.stderr, "bound") {
		t.Fatalf("said twice:\n%s", r.stderr)
	}
}
