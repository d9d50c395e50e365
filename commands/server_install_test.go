package commands

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/internal/testkit/testrelease"
)

type errJSON struct {
	Error struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Hint    string         `json:"hint"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

func parseErr(t *testing.T, stderr string) errJSON {
	t.Helper()
	var e errJSON
	if err := json.Unmarshal([]byte(stderr), &e); err != nil {
		t.Fatalf("stderr is not one JSON error: %v\n%s", err, stderr)
	}
	return e
}

// The release is signed with a key made for this test, trusted through
// the loamstest seam of the test build.
func TestServerInstallCLI(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	env := bareEnv(t, "/usr/bin:/bin", "LOAMS_RELEASES_URL="+rel.URL, "LOAMS_TEST_MINISIGN_KEY="+rel.PublicKey)
	cli := testbin.Loams(t)
	loamsHome := envValue(env, "LOAMS_HOME")

	out, errOut, code := run(t, env, cli, "server", "install", "-o", "json")
	e := parseErr(t, errOut)
	if code != 3 || out != "" || e.Error.Code != "download_consent_required" || e.Error.Details["size_bytes"] != float64(rel.Manifest.Artifacts[0].Size) ||
		!strings.Contains(e.Error.Hint, "--allow-download") || rel.Requests.Load() != 0 {
		t.Fatalf("no consent: exit %d, %+v, %d downloads", code, e, rel.Requests.Load())
	}
	if _, err := os.Stat(filepath.Join(loamsHome, "servers", "current")); err == nil {
		t.Fatal("installed without consent")
	}

	out, errOut, code = run(t, env, cli, "server", "install", "--allow-download", "-o", "json")
	var inst struct {
		Installed struct {
			Version, Path string
			Signed        bool
		} `json:"installed"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &inst) != nil || inst.Installed.Version != "0.3.0" || !inst.Installed.Signed || errOut != "" {
		t.Fatalf("install: %d %s %s", code, out, errOut)
	}
	out, _, _ = run(t, env, cli, "server", "list", "-o", "json")
	var l serverListJSON
	_ = json.Unmarshal([]byte(out), &l)
	if len(l.Servers) != 1 || !l.Servers[0].Used || l.Servers[0].Source != "loams server install" || l.Servers[0].Path != inst.Installed.Path {
		t.Errorf("server list after install: %s", out)
	}

	if _, errOut, code := run(t, env, cli, "server", "remove", "0.3.0", "-o", "json"); code != 3 || parseErr(t, errOut).Error.Code != "confirmation_required" {
		t.Errorf("remove without --yes: %d %s", code, errOut)
	}
	if out, errOut, code := run(t, env, cli, "server", "remove", "0.3.0", "--yes", "-o", "json"); code != 0 || !strings.Contains(out, `"removed": true`) {
		t.Errorf("remove: %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(inst.Installed.Path); err == nil {
		t.Error("remove left the binary")
	}

	// --from FILE: a binary the user has; its version is its own.
	bin := filepath.Join(t.TempDir(), "loams")
	if err := testbin.WriteExecutable(bin, testrelease.StandIn(t, "0.4.1")); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := run(t, env, cli, "server", "install", "--from", bin, "-o", "json"); code != 0 || !strings.Contains(out, `"version": "0.4.1"`) {
		t.Errorf("--from: %d %s %s", code, out, errOut)
	}
}

// A release build has no seam: the test key in the environment is
// ignored, so the same release cannot be verified.
func TestReleaseBuildIgnoresTestKey(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	env := bareEnv(t, "/usr/bin:/bin", "LOAMS_RELEASES_URL="+rel.URL, "LOAMS_TEST_MINISIGN_KEY="+rel.PublicKey)
	_, errOut, code := run(t, env, testbin.BuildTagged(t, "./cmd/loams", ""), "server", "install", "--allow-download", "-o", "json")
	if e := parseErr(t, errOut); code != 9 || e.Error.Code != "signature_invalid" || !strings.Contains(e.Error.Hint, "--allow-unsigned") {
		t.Fatalf("release build: exit %d %+v", code, e)
	}
}

// Done when: on a machine with no server, `init --yes` stops with a hint
// naming the command; `init --yes --allow-download` installs a verified
// server and ends with a running stack and .env.loams.
func TestInitInstallsServer(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	env := bareEnv(t, "/usr/bin:/bin", "LOAMS_RELEASES_URL="+rel.URL, "LOAMS_TEST_MINISIGN_KEY="+rel.PublicKey)
	cli, proj := testbin.Loams(t), t.TempDir()

	_, errOut, code := run(t, env, cli, "init", "--yes", "--no-agent", "--project-dir", proj)
	if code != 4 || !strings.Contains(errOut, "hint: point loams at a Loams server binary: `LOAMS_SERVER_BINARY=PATH loams init --yes`") ||
		!strings.Contains(errOut, "`loams init --yes --allow-download` once a release is published") {
		t.Fatalf("init without a server: exit %d\n%s", code, errOut)
	}
	base := portBase(t)
	out, errOut, code := run(t, env, cli, "init", "--yes", "--allow-download", "--no-agent", "--port-base", base, "--project-dir", proj, "-o", "json")
	defer run(t, env, cli, "stack", "stop", "--name", "dev", "--grace", "2s")
	var res initJSON
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Stack.State != "running" || res.EnvFile == nil {
		t.Fatalf("init --allow-download: exit %d\n%s\n%s", code, out, errOut)
	}
	d, _, _ := run(t, env, cli, "stack", "describe", "--name", "dev", "-o", "json")
	if !strings.Contains(d, filepath.Join(envValue(env, "LOAMS_HOME"), "servers", "0.3.0", "standard", "loams")) {
		t.Errorf("the stack does not run the installed server: %s", d)
	}
	if data, err := os.ReadFile(filepath.Join(proj, ".env.loams")); err != nil || !strings.Contains(string(data), "LOAMS_URL=http://127.0.0.1:"+port(base, 80)) {
		t.Errorf(".env.loams: %v %s", err, data)
	}
}

// Installing a server leaves existing stacks alone; restart --upgrade
// moves one to it.
func TestRestartUpgrade(t *testing.T) {
	t.Parallel()
	cli := testbin.Loams(t)
	env := bareEnv(t, "/usr/bin:/bin")
	if _, errOut, code := run(t, env, cli, "stack", "create", "--name", "dev", "--port-base", portBase(t), "--engines", "qdrant",
		"--server-binary", testbin.Build(t, "./internal/testkit/testserver")); code != 0 {
		t.Fatal(errOut)
	}
	defer run(t, env, cli, "stack", "stop", "--name", "dev", "--grace", "2s")
	bin := filepath.Join(t.TempDir(), "loams")
	if err := testbin.WriteExecutable(bin, testrelease.StandIn(t, "0.4.1")); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, env, cli, "server", "install", "--from", bin); code != 0 {
		t.Fatal(errOut)
	}
	if out, _, _ := run(t, env, cli, "stack", "restart", "--name", "dev", "-o", "json"); !strings.Contains(out, `"server_version": "0.0.1"`) {
		t.Errorf("restart without --upgrade changed the server: %s", out)
	}
	out, errOut, code := run(t, env, cli, "stack", "restart", "--name", "dev", "--upgrade", "-o", "json")
	if code != 0 || !strings.Contains(out, `"server_version": "0.4.1"`) || !strings.Contains(out, filepath.Join("servers", "0.4.1")) {
		t.Errorf("restart --upgrade: %d %s %s", code, out, errOut)
	}
}

// Nothing is published at the release URL (the truth today): `server
// install` is release_not_published (exit 4) naming the URL and the ways
// that work; `stack create --allow-download` stays server_binary_not_found.
func TestServerInstallNothingPublished(t *testing.T) {
	t.Parallel()
	empty := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(empty.Close)
	env := bareEnv(t, "/usr/bin:/bin", "LOAMS_RELEASES_URL="+empty.URL+"/")
	cli := testbin.Loams(t)
	_, errOut, code := run(t, env, cli, "server", "install", "-o", "json")
	e := parseErr(t, errOut)
	if code != 4 || e.Error.Code != "release_not_published" || e.Error.Details["url"] != empty.URL+"/loams-release.json" ||
		!strings.Contains(e.Error.Hint, "LOAMS_SERVER_BINARY") || !strings.Contains(e.Error.Hint, "--from FILE") {
		t.Fatalf("server install: exit %d %+v", code, e)
	}
	_, errOut, code = run(t, env, cli, "stack", "create", "--name", "x", "--allow-download", "-o", "json")
	if e := parseErr(t, errOut); code != 4 || e.Error.Code != "server_binary_not_found" || e.Error.Details["release_url"] != empty.URL+"/loams-release.json" {
		t.Fatalf("stack create --allow-download: exit %d %+v", code, e)
	}
}

// Issue 28: offline, server install's hint names --from (the one way that
// needs no network), not only "check the network".
func TestServerInstallOfflineHintNamesFrom(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close() // connection refused from now on
	env := cliEnv(t, "HOME="+t.TempDir(), "LOAMS_RELEASES_URL="+dead)
	_, errOut, code := loams(t, env, "-o", "json", "server", "install", "--allow-download")
	if code != 7 || !strings.Contains(errOut, `"endpoint_unreachable"`) || !strings.Contains(errOut, "loams server install --from FILE") {
		t.Fatalf("exit %d %s", code, errOut)
	}
}
