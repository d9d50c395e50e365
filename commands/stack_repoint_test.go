package commands

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testports"
)

// Issue 28: a stack whose server binary was removed names it and says how
// to point the stack at another; `stack start --server-binary` does it.
func TestStartNamesAVanishedServerBinary(t *testing.T) {
	t.Parallel()
	env := cliEnv(t, "HOME="+t.TempDir())
	real := envValue(env, "LOAMS_SERVER_BINARY")
	data, err := os.ReadFile(real)
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "loams-server")
	if err := os.WriteFile(gone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "moved", "--port-base", portBase(t), "--no-start", "--server-binary", gone); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	os.Remove(gone)
	_, errOut, code := loams(t, env, "-o", "json", "stack", "start", "moved")
	if code != 4 || !strings.Contains(errOut, `"server_binary_not_found"`) || !strings.Contains(errOut, gone) ||
		!strings.Contains(errOut, "--server-binary PATH") {
		t.Fatalf("start with the binary gone: exit %d %s", code, errOut)
	}
	out, errOut, code := loams(t, env, "-o", "json", "stack", "start", "moved", "--server-binary", real)
	t.Cleanup(func() { loams(t, env, "stack", "stop", "moved", "--grace", "2s") })
	if code != 0 || !strings.Contains(out, `"state": "running"`) || !strings.Contains(out, real) {
		t.Fatalf("start --server-binary: exit %d %s %s", code, out, errOut)
	}
}

// Issue 28: a stopped stack whose port was taken moves with `stack start
// --port-base`, and keeps its key (no recreate, no new key for the app).
func TestStartPortBaseMovesAStoppedStackAndKeepsItsKey(t *testing.T) {
	t.Parallel()
	env := cliEnv(t, "HOME="+t.TempDir())
	base, moved := testports.Block(t), testports.Block(t)
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "moving", "--port-base", strconv.Itoa(base), "--no-start", "--engines", "native"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	keyOf := func() (key, url string) {
		out, errOut, code := loams(t, env, "env", "export", "--stack", "moving")
		if code != 0 {
			t.Fatalf("export: %s", errOut)
		}
		for _, l := range strings.Split(out, "\n") {
			if v, ok := strings.CutPrefix(l, "LOAMS_API_KEY="); ok {
				key = v
			}
			if v, ok := strings.CutPrefix(l, "LOAMS_URL="); ok {
				url = v
			}
		}
		return key, url
	}
	key, url := keyOf()
	native := strconv.Itoa(base + 80) // the native port (offset 80)
	l, err := net.Listen("tcp", "127.0.0.1:"+native)
	if err != nil {
		t.Fatalf("port %s of the block claimed for this test is busy: %v", native, err)
	}
	defer l.Close()
	if _, errOut, code := loams(t, env, "stack", "start", "moving"); code != 5 || !strings.Contains(errOut, native) {
		t.Fatalf("start on a taken port: exit %d %s", code, errOut)
	}
	out, errOut, code := loams(t, env, "-o", "json", "stack", "start", "moving", "--port-base", strconv.Itoa(moved))
	t.Cleanup(func() { loams(t, env, "stack", "stop", "moving", "--grace", "2s") })
	if code != 0 || !strings.Contains(out, `"state": "running"`) || !strings.Contains(out, "127.0.0.1:"+strconv.Itoa(moved+80)) {
		t.Fatalf("start --port-base: exit %d %s %s", code, out, errOut)
	}
	newKey, newURL := keyOf()
	if newKey != key || key == "" || newURL != "http://127.0.0.1:"+strconv.Itoa(moved+80) || newURL == url {
		t.Fatalf("key kept %v, url %s -> %s", newKey == key, url, newURL)
	}
	if _, errOut, code := loams(t, env, "stack", "start", "moving", "--port-base", portBase(t)); code != 5 || !strings.Contains(errOut, "stack_running") && !strings.Contains(errOut, "running") {
		t.Errorf("re-porting a running stack: exit %d %s", code, errOut)
	}
}
