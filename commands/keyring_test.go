package commands

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/secret"
)

// keyringEnv is the environment of a loams run in the keyring tests: this
// process's (session bus included) with LOAMS_* replaced.
func keyringEnv(loamsHome string, drop string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "LOAMS_") || drop != "" && strings.HasPrefix(kv, drop+"=") {
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "LOAMS_HOME="+loamsHome), extra...)
}

type loamsResult struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// runBin runs the built binary; a hang is killed after a minute and fails
// the test, which is what "every keyring call has a timeout" means here.
func runBin(t *testing.T, env []string, args ...string) loamsResult {
	t.Helper()
	// Outside any project: run in the package directory, `stack create`
	// would bind this repository (TestMain trips on that).
	return runBinIn(t, env, t.TempDir(), args...)
}

// runBinIn is runBin in directory dir ("" for this process's).
func runBinIn(t *testing.T, env []string, dir string, args ...string) loamsResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testbin.Loams(t), args...)
	cmd.Env, cmd.Dir = env, dir
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("loams %v hung (killed after a minute)", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return loamsResult{out.String(), errOut.String(), code, time.Since(start)}
}

// secretTool asks libsecret's own CLI, a second client of the same
// Secret Service, for the stack's key: "" when it has none.
func secretTool(name string) string {
	out, err := exec.Command("secret-tool", "lookup", "service", "loams", "username", "stack/"+name+"/api_key").Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// The CLI against a real gnome-keyring: stack create stores the key there,
// env export reads it back, delete removes it; without a session bus auto
// falls back to the file store and keyring mode fails clearly.
func TestKeyringThroughCLI(t *testing.T) {
	if os.Getenv("LOAMS_KEYRING_TEST") == "" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		t.Skip("needs a real Secret Service: LOAMS_KEYRING_TEST=1 under dbus-run-session with gnome-keyring-daemon (.ci/steps/40-keyring.sh)")
	}
	if _, err := exec.LookPath("secret-tool"); err != nil {
		t.Skip("needs secret-tool (Debian libsecret-tools) to cross-check the keyring")
	}
	ctx := context.Background()
	h := home.Home{Dir: t.TempDir()}
	const name = "ktest-cli"
	kr := secret.NewKeyring()
	t.Cleanup(func() { kr.Delete(ctx, name) })
	keyringMode := keyringEnv(h.Dir, "", "LOAMS_SECRETS=keyring")

	r := runBin(t, keyringMode, "stack", "create", "--name", name, "--no-start", "--server-binary", testbin.Build(t, "./internal/testkit/testserver"))
	if r.code != 0 {
		t.Fatalf("stack create: exit %d, stderr %s", r.code, r.stderr)
	}
	key, err := kr.Get(ctx, name)
	if err != nil {
		t.Fatalf("stack create did not store the key in the keyring: %v", err)
	}
	if !strings.HasPrefix(key.Reveal(), "loams_") || secretTool(name) != key.Reveal() {
		t.Errorf("secret-tool sees %q, loams stored a key of %d bytes", secretTool(name), len(key.Reveal()))
	}
	if _, err := os.Stat(filepath.Join(h.Stack(name), "secrets", "api_key")); err == nil {
		t.Error("keyring mode also wrote the key to a file")
	}

	// env export reads the key back from the real keyring, in both modes that use it.
	for _, mode := range []string{"keyring", "auto"} {
		r := runBin(t, keyringEnv(h.Dir, "", "LOAMS_SECRETS="+mode), "env", "export", "--stack", name)
		if r.code != 0 || !strings.Contains(r.stdout, "LOAMS_API_KEY="+key.Reveal()+"\n") {
			t.Fatalf("secrets=%s: env export exit %d, stderr %s; the key from the keyring is missing", mode, r.code, r.stderr)
		}
	}

	// Without a session bus: auto falls back to the file store, keyring fails clearly.
	noBus := func(mode string) []string {
		return keyringEnv(h.Dir, "DBUS_SESSION_BUS_ADDRESS", "LOAMS_SECRETS="+mode)
	}
	r = runBin(t, noBus("keyring"), "env", "export", "--stack", name, "-o", "json")
	var e struct{ Error struct{ Code string } }
	json.Unmarshal([]byte(r.stderr), &e)
	if r.code != 7 || e.Error.Code != "keyring_unavailable" || r.stdout != "" {
		t.Errorf("keyring mode without a bus: exit %d, stderr %s; want 7 keyring_unavailable", r.code, r.stderr)
	}
	t.Logf("keyring mode without a bus failed after %s", r.took)
	fileKey, _ := secret.Generate()
	if err := (secret.File{Home: h}).Set(ctx, name, fileKey); err != nil {
		t.Fatal(err)
	}
	r = runBin(t, noBus("auto"), "env", "export", "--stack", name)
	if r.code != 0 || !strings.Contains(r.stdout, "LOAMS_API_KEY="+fileKey.Reveal()+"\n") {
		t.Errorf("auto without a bus must fall back to the file store: exit %d, stderr %s", r.code, r.stderr)
	}
	t.Logf("auto mode without a bus fell back after %s", r.took)

	// delete removes the key from the keyring.
	if r := runBin(t, keyringMode, "stack", "delete", "--name", name, "--yes"); r.code != 0 {
		t.Fatalf("stack delete: exit %d, stderr %s", r.code, r.stderr)
	}
	if _, err := kr.Get(ctx, name); !errors.Is(err, secret.ErrNotFound) || secretTool(name) != "" {
		t.Errorf("the key is still in the keyring after stack delete: %v", err)
	}
}
