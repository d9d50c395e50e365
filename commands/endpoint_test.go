package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/testkit/standin"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/secret"
)

// remoteKey is the key the remote stand-in requires; tests scan for it.
const remoteKey = "loams_r3m0te0key00_RemoteRemoteRemoteRemoteRemote99"

// remoteSetup starts the stand-in behind TLS with a CA made for the test
// and returns its URL, the CA file and an environment with a fresh
// LOAMS_HOME (file secrets).
func remoteSetup(t *testing.T) (url, caPEM string, env map[string]string) {
	t.Helper()
	dir := t.TempDir()
	ca := standin.NewCA(t, dir)
	cert, key := ca.Issue(t, dir, []string{"127.0.0.1"})
	srv := standin.Start(t, standin.Options{Cert: cert, KeyFile: key, APIKey: remoteKey})
	return srv.URL, ca.PEMPath, map[string]string{"LOAMS_HOME": filepath.Join(dir, "home"), "LOAMS_SECRETS": "file"}
}

// runIn is runLoams with stdin.
func runIn(t *testing.T, env map[string]string, stdin string, argv ...string) cliRun {
	t.Helper()
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(stdin)
	f := &Factory{IO: ios, Dir: t.TempDir(), Getenv: func(k string) string { return env[k] }, Now: time.Now,
		Executable: func() (string, error) { return "/usr/local/bin/loams", nil }}
	code := Run(context.Background(), f, append([]string{"loams"}, argv...), nil)
	r := cliRun{stdout: out.String(), stderr: errOut.String(), code: code, f: f}
	if strings.Contains(r.stdout+r.stderr, remoteKey) || strings.Contains(r.stdout+r.stderr, remoteKey[19:]) {
		t.Fatalf("%v printed the key:\n%s\n%s", argv, r.stdout, r.stderr)
	}
	return r
}

func mustRun(t *testing.T, env map[string]string, stdin string, argv ...string) cliRun {
	t.Helper()
	r := runIn(t, env, stdin, argv...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", argv, r.code, r.stdout, r.stderr)
	}
	return r
}

// wantError checks the json-mode error object of a failed run.
func wantError(t *testing.T, r cliRun, code errs.Code) errs.Object {
	t.Helper()
	var e struct{ Error errs.Object }
	if err := json.Unmarshal([]byte(r.stderr), &e); err != nil || e.Error.Code != code || r.code != code.ExitCode() || r.stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s; want %s (exit %d)", r.code, r.stdout, r.stderr, code, code.ExitCode())
	}
	return e.Error
}

// profileKey is the key stored for profile and the origin it is bound to.
func profileKey(t *testing.T, env map[string]string, profile string) (secret.Bound, error) {
	t.Helper()
	keys, err := secret.OpenProfiles(context.Background(), secret.ModeFile, homeOf(env), nil)
	if err != nil {
		t.Fatal(err)
	}
	return keys.GetBound(context.Background(), profile)
}

func TestLoginStoresTheKeyAndStatusReportsTheServer(t *testing.T) {
	url, ca, env := remoteSetup(t)
	mustRun(t, env, "", "--profile", "staging", "configure", "set", "endpoint", url)
	mustRun(t, env, "", "--profile", "staging", "configure", "set", "ca_cert", ca)

	r := mustRun(t, env, remoteKey+"\n", "--profile", "staging", "-o", "json", "login", "--with-api-key")
	var login loginJSON
	if err := json.Unmarshal([]byte(r.stdout), &login); err != nil {
		t.Fatal(err)
	}
	if login != (loginJSON{Profile: "staging", Endpoint: url, KeyID: "r3m0te0key00", KeyOrigin: url, SecretsBackend: "file", KeyVerified: true, ServerVersion: "0.0.1"}) {
		t.Fatalf("login = %+v", login)
	}
	if k, err := profileKey(t, env, "staging"); err != nil || k.Key.Reveal() != remoteKey || k.Origin != url {
		t.Fatalf("stored key (origin %q): %v", k.Origin, err)
	}
	fi, err := os.Stat(filepath.Join(env["LOAMS_HOME"], "profiles", "staging", "secrets", "api_key"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	cfg, _ := os.ReadFile(filepath.Join(env["LOAMS_HOME"], "config.toml"))
	if strings.Contains(string(cfg), remoteKey[19:]) {
		t.Fatal("config.toml holds the key")
	}

	r = mustRun(t, env, "", "--profile", "staging", "-o", "json", "status")
	var st map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"endpoint": url, "kind": "remote", "profile": "staging", "reachable": true,
		"server_version": "0.0.1", "compatibility": "unchecked"} {
		if st[k] != want {
			t.Errorf("status %s = %v; want %v", k, st[k], want)
		}
	}
	if svc, _ := st["services"].([]any); len(svc) == 0 || st["edition"] == "" {
		t.Errorf("services %v", st["services"])
	}
	if _, ok := st["latency_ms"].(float64); !ok {
		t.Errorf("latency_ms %v", st["latency_ms"])
	}

	r = mustRun(t, env, "", "--profile", "staging", "-o", "json", "whoami")
	var who whoamiJSON
	json.Unmarshal([]byte(r.stdout), &who)
	if who.KeyID != "r3m0te0key00" || who.Identity["principal"] != "stand-in-user" || who.Endpoint != url {
		t.Fatalf("whoami = %+v", who)
	}

	r = mustRun(t, env, "", "--profile", "staging", "-o", "json", "logout")
	if !strings.Contains(r.stdout, `"removed": true`) {
		t.Fatalf("logout: %s", r.stdout)
	}
	if _, err := profileKey(t, env, "staging"); err != secret.ErrNotFound {
		t.Fatalf("key after logout: %v", err)
	}
	e := wantError(t, runIn(t, env, "", "--profile", "staging", "-o", "json", "whoami"), errs.Unauthenticated)
	if e.Hint != "log in: `loams login --with-api-key --profile staging` (the key is read from stdin)" {
		t.Fatalf("hint %q", e.Hint)
	}
}

func TestLoginRefusals(t *testing.T) {
	url, ca, env := remoteSetup(t)
	mustRun(t, env, "", "configure", "set", "endpoint", url)
	mustRun(t, env, "", "configure", "set", "ca_cert", ca)
	nothingStored := func() {
		t.Helper()
		if _, err := profileKey(t, env, "default"); err != secret.ErrNotFound {
			t.Fatalf("a key was stored: %v", err)
		}
	}

	t.Run("malformed key", func(t *testing.T) {
		e := wantError(t, runIn(t, env, "hunter2-not-a-key\n", "-o", "json", "login", "--with-api-key"), errs.Usage)
		if strings.Contains(e.Message+e.Hint, "hunter2") {
			t.Fatalf("the input is echoed: %s", e.Message)
		}
		wantError(t, runIn(t, env, "", "-o", "json", "login", "--with-api-key"), errs.Usage)
		wantError(t, runIn(t, env, "", "-o", "json", "login", "--with-api-key", remoteKey), errs.Usage)
		nothingStored()
	})
	t.Run("key the server rejects", func(t *testing.T) {
		other := "loams_aaaaaaaaaaaa_" + strings.Repeat("Z", 32)
		e := wantError(t, runIn(t, env, other+"\n", "-o", "json", "login", "--with-api-key"), errs.Unauthenticated)
		if e.Hint != "log in again: `loams login --with-api-key --profile default` (the key is read from stdin)" {
			t.Fatalf("hint %q", e.Hint)
		}
		if strings.Contains(e.Message, strings.Repeat("Z", 32)) {
			t.Fatal("the rejected key is echoed")
		}
		nothingStored()
	})
	t.Run("no sign-in methods", func(t *testing.T) {
		e := wantError(t, runIn(t, env, "", "-o", "json", "login"), errs.AuthNotAvailable)
		if !strings.Contains(e.Hint, "loams login --with-api-key") || e.ExitCode != 6 {
			t.Fatalf("hint %q", e.Hint)
		}
	})
	t.Run("untrusted certificate", func(t *testing.T) {
		noCA := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SECRETS": "file"}
		mustRun(t, noCA, "", "configure", "set", "endpoint", url)
		e := wantError(t, runIn(t, noCA, remoteKey+"\n", "-o", "json", "login", "--with-api-key"), errs.TLSError)
		if !strings.Contains(e.Hint, "ca_cert") {
			t.Fatalf("hint %q", e.Hint)
		}
		// status reports it, and exits with its code.
		r := runIn(t, noCA, "", "-o", "json", "status")
		if !strings.Contains(r.stdout, `"reachable": false`) || !strings.Contains(r.stdout, `"code": "tls_error"`) || r.code != 7 || r.stderr != "" {
			t.Fatalf("status: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		// SSL_CERT_FILE adds the CA.
		withEnv := map[string]string{"LOAMS_HOME": noCA["LOAMS_HOME"], "LOAMS_SECRETS": "file", "SSL_CERT_FILE": ca}
		mustRun(t, withEnv, remoteKey+"\n", "-o", "json", "login", "--with-api-key")
	})
	t.Run("insecure endpoint", func(t *testing.T) {
		e := wantError(t, runIn(t, env, "", "-o", "json", "configure", "set", "endpoint", "http://loams.example.com"), errs.InsecureEndpoint)
		if e.ExitCode != 3 {
			t.Fatal(e)
		}
		wantError(t, runIn(t, env, remoteKey+"\n", "-o", "json", "--endpoint", "http://203.0.113.7:8080", "login", "--with-api-key"), errs.InsecureEndpoint)
		env2 := map[string]string{"LOAMS_HOME": env["LOAMS_HOME"], "LOAMS_SECRETS": "file", "LOAMS_ENDPOINT": "http://203.0.113.7:8080"}
		wantError(t, runIn(t, env2, "", "-o", "json", "status"), errs.InsecureEndpoint)
		nothingStored()
	})
	t.Run("unreachable", func(t *testing.T) {
		env2 := map[string]string{"LOAMS_HOME": env["LOAMS_HOME"], "LOAMS_SECRETS": "file"}
		e := wantError(t, runIn(t, env2, remoteKey+"\n", "-o", "json", "--endpoint", "https://127.0.0.1:9", "login", "--with-api-key"), errs.EndpointUnreachable)
		if e.ExitCode != 7 {
			t.Fatal(e)
		}
		nothingStored()
	})
	t.Run("local endpoint needs no login", func(t *testing.T) {
		env2 := map[string]string{"LOAMS_HOME": t.TempDir()}
		wantError(t, runIn(t, env2, remoteKey+"\n", "-o", "json", "--endpoint", "local:dev", "login", "--with-api-key"), errs.StackNotFound)
	})
}

func TestLoginWithEndpointFlagRemembersIt(t *testing.T) {
	url, ca, env := remoteSetup(t)
	env["SSL_CERT_FILE"] = ca
	mustRun(t, env, remoteKey+"\n", "--endpoint", url, "login", "--with-api-key")
	r := mustRun(t, env, "", "configure", "get", "endpoint")
	if strings.TrimSpace(r.stdout) != url {
		t.Fatalf("endpoint = %q", r.stdout)
	}
}

func homeOf(env map[string]string) home.Home { return home.Home{Dir: env["LOAMS_HOME"]} }

// status of a local stack: the same client, kind local, and a sourced
// .env.loams (LOAMS_ENDPOINT = the stack's native URL) is that stack.
func TestStatusOfALocalStack(t *testing.T) {
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SECRETS": "file",
		"LOAMS_SERVER_BINARY": testbin.Build(t, "./internal/testkit/testserver")}
	base := portBase(t)
	mustRun(t, env, "", "stack", "create", "--name", "dev", "--engines", "qdrant", "--port-base", base, "--no-start")
	r := runIn(t, env, "", "-o", "json", "status")
	var st statusJSON
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || r.code != 7 {
		t.Fatalf("exit %d: %v", r.code, err)
	}
	if st.Kind != "local" || st.Stack != "dev" || st.Reachable || st.Error == nil || st.Error.Code != errs.EndpointUnreachable ||
		st.Error.Hint != "start it: `loams stack start dev`" || st.Endpoint != "http://127.0.0.1:"+port(base, 80) {
		t.Fatalf("stopped stack: %s", r.stdout)
	}
	mustRun(t, env, "", "stack", "start", "--name", "dev")
	t.Cleanup(func() { runIn(t, env, "", "stack", "stop", "--name", "dev", "--grace", "2s") })
	env["LOAMS_ENDPOINT"] = "http://localhost:" + port(base, 80)
	r = mustRun(t, env, "", "-o", "json", "status")
	st = statusJSON{}
	json.Unmarshal([]byte(r.stdout), &st)
	if st.Kind != "local" || st.Stack != "dev" || !st.Reachable || st.ServerVersion != "0.0.1" || st.Error != nil {
		t.Fatalf("running stack via LOAMS_ENDPOINT: %s", r.stdout)
	}
	r = mustRun(t, env, "", "-o", "json", "whoami")
	if !strings.Contains(r.stdout, `"kind": "local"`) || !strings.Contains(r.stdout, `"stack": "dev"`) {
		t.Fatalf("whoami on a local stack: %s", r.stdout)
	}
}
