package commands

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "moved", "--port-base", "28700", "--no-start", "--server-binary", gone); code != 0 {
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
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "moving", "--port-base", "24700", "--no-start", "--engines", "native"); code != 0 {
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
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(24780)) // the native port (offset 80)
	if err != nil {
		t.Skipf("port 24780 is busy here: %v", err)
	}
	defer l.Close()
	if _, errOut, code := loams(t, env, "stack", "start", "moving"); code != 5 || !strings.Contains(errOut, "24780") {
		t.Fatalf("start on a taken port: exit %d %s", code, errOut)
	}
	out, errOut, code := loams(t, env, "-o", "json", "stack", "start", "moving", "--port-base", "24800")
	t.Cleanup(func() { loams(t, env, "stack", "stop", "moving", "--grace", "2s") })
	if code != 0 || !strings.Contains(out, `"state": "running"`) || !strings.Contains(out, "127.0.0.1:24880") {
		t.Fatalf("start --port-base: exit %d %s %s", code, out, errOut)
	}
	newKey, newURL := keyOf()
	if newKey != key || key == "" || newURL != "http://127.0.0.1:24880" || newURL == url {
		t.Fatalf("key kept %v, url %s -> %s", newKey == key, url, newURL)
	}
	if _, errOut, code := loams(t, env, "stack", "start", "moving", "--port-base", "24900"); code != 5 || !strings.Contains(errOut, "stack_running") && !strings.Contains(errOut, "running") {
		t.Errorf("re-porting a running stack: exit %d %s", code, errOut)
	}
}
