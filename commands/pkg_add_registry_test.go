package commands

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 21: in a fresh `npm init -y` app, `loams pkg add sdk` ends with
// package_not_published (exit 6), naming the registry, the package and
// what to use instead, while @loams/client is unpublished. A real npm
// against a registry on 127.0.0.1 that has nothing.
func TestPkgAddSDKUnpublishedExits6(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is needed:", err)
	}
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"Not found"}`))
	}))
	defer reg.Close()
	dir := t.TempDir()
	init := exec.Command("npm", "init", "-y")
	// npm writes logs and its update notifier under HOME: not the real one.
	init.Dir, init.Env = dir, append(os.Environ(), "HOME="+t.TempDir(), "npm_config_cache="+t.TempDir(), "npm_config_update_notifier=false")
	if out, err := init.CombinedOutput(); err != nil {
		t.Fatalf("npm init -y: %v\n%s", err, out)
	}
	rc := filepath.Join(t.TempDir(), "npmrc")
	os.WriteFile(rc, []byte("audit=false\nfund=false\nupdate-notifier=false\nfetch-retries=0\n"), 0o600)
	env := append(os.Environ(), "LOAMS_HOME="+t.TempDir(), "npm_config_registry="+reg.URL+"/",
		"npm_config_userconfig="+rc, "npm_config_cache="+t.TempDir())
	stdout, stderr, code := loamsIn(t, env, dir, "pkg", "add", "sdk")
	if code != 6 || stdout != "" || !strings.Contains(stderr, "@loams/client") || !strings.Contains(stderr, reg.URL) ||
		!strings.Contains(stderr, "loams pkg add qdrant") {
		t.Fatalf("exit %d\nstdout %q\nstderr %s", code, stdout, stderr)
	}
	_, stderr, code = loamsIn(t, env, dir, "pkg", "add", "sdk", "-o", "json")
	if code != 6 || !strings.Contains(stderr+"", "package_not_published") {
		t.Fatalf("json: exit %d %s", code, stderr)
	}
}

// A registry that cannot be reached stays retryable: server_error (exit 7)
// saying so, never package_not_published.
func TestPkgAddUnreachableRegistryIsRetryable(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is needed:", err)
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close() // connection refused from now on
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"app","version":"1.0.0"}`), 0o644)
	rc := filepath.Join(t.TempDir(), "npmrc")
	os.WriteFile(rc, []byte("audit=false\nfund=false\nupdate-notifier=false\nfetch-retries=0\n"), 0o600)
	env := append(os.Environ(), "LOAMS_HOME="+t.TempDir(), "npm_config_registry="+url+"/", "npm_config_userconfig="+rc, "npm_config_cache="+t.TempDir())
	_, stderr, code := loamsIn(t, env, dir, "pkg", "add", "qdrant")
	if code != 7 || !strings.Contains(stderr, "could not reach its registry") || strings.Contains(stderr, "package_not_published") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
}
