package commands

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// Five installs for different agents at once, as five processes: every
// record survives (mcp-installs.json is updated under a lock), and each
// uninstall then finds its own.
func TestParallelInstallsKeepEveryRecord(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := cliEnv(t, "HOME="+home, "PATH=/usr/bin:/bin", "XDG_CONFIG_HOME=", "COPILOT_HOME=", "CLAUDE_PROJECT_DIR=")
	agentsToInstall := []string{"cursor", "windsurf", "gemini-cli", "qwen-code", "copilot-cli"}
	var wg sync.WaitGroup
	results := make([]string, len(agentsToInstall))
	for i, a := range agentsToInstall {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, errOut, code := loams(t, env, "mcp", "install", "--agent", a, "-o", "json")
			if code != 0 {
				results[i] = a + ": " + errOut
			}
			_ = out
		}()
	}
	wg.Wait()
	for _, r := range results {
		if r != "" {
			t.Fatal(r)
		}
	}
	loamsHome := strings.TrimPrefix(env[slices.IndexFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "LOAMS_HOME=") })], "LOAMS_HOME=")
	var recs struct {
		Installs []struct{ Agent string } `json:"installs"`
	}
	b, _ := os.ReadFile(filepath.Join(loamsHome, "mcp-installs.json"))
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs.Installs {
		got = append(got, r.Agent)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(agentsToInstall))
	if !slices.Equal(got, want) {
		t.Fatalf("records %v, want %v", got, want)
	}
	for _, a := range agentsToInstall {
		out, errOut, code := loams(t, env, "mcp", "uninstall", "--agent", a, "-o", "json")
		if code != 0 || !strings.Contains(out, `"restored": true`) {
			t.Errorf("uninstall %s: %d %s %s", a, code, out, errOut)
		}
	}
}

// A read-only ~/.cursor/mcp.json is refused with forbidden (exit 8) and
// never replaced, even though this test may run as root.
func TestReadOnlyCursorConfigRefused(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cfg := filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	original := []byte(`{"mcpServers": {"other": {"command": "x"}}}` + "\n")
	os.WriteFile(cfg, original, 0o444)
	env := cliEnv(t, "HOME="+home, "PATH=/usr/bin:/bin")
	out, errOut, code := loams(t, env, "mcp", "install", "--agent", "cursor", "-o", "json")
	if code != 8 || out != "" || !strings.Contains(errOut, `"forbidden"`) || !strings.Contains(errOut, "chmod u+w") {
		t.Fatalf("exit %d stdout %q stderr %s", code, out, errOut)
	}
	if b, _ := os.ReadFile(cfg); string(b) != string(original) {
		t.Fatalf("file replaced: %s", b)
	}
	if fi, _ := os.Stat(cfg); fi.Mode().Perm() != 0o444 {
		t.Fatalf("mode changed to %v", fi.Mode().Perm())
	}
}

// The binary run from a go-build directory (as `go run` leaves it) is
// refused with the go install hint, unless --allow-temporary-binary.
func TestTemporaryBinaryRefusedByCLI(t *testing.T) {
	t.Parallel()
	tmpBin := filepath.Join(t.TempDir(), "go-build123", "b001", "exe", "loams")
	os.MkdirAll(filepath.Dir(tmpBin), 0o755)
	b, err := os.ReadFile(testbin.Loams(t))
	if err != nil {
		t.Fatal(err)
	}
	testbin.WriteExecutable(tmpBin, b)
	home := t.TempDir()
	env := cliEnv(t, "HOME="+home, "PATH=/usr/bin:/bin")
	run := func(args ...string) (string, int) {
		cmd := exec.Command(tmpBin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		}
		return string(out), 0
	}
	out, code := run("mcp", "install", "--agent", "cursor", "-o", "json")
	if code != 2 || !strings.Contains(out, `"usage"`) || !strings.Contains(out, "go install") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(home, ".cursor", "mcp.json")); err == nil {
		t.Fatal("wrote the entry anyway")
	}
	if out, code := run("mcp", "install", "--agent", "cursor", "--allow-temporary-binary"); code != 0 {
		t.Fatalf("with the flag: exit %d: %s", code, out)
	}
}
