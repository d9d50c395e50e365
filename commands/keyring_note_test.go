package commands

import (
	"runtime"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// The keyring fallback note appears once per process on a terminal, on a
// line of its own, however many steps open the secret store (init opens it
// three times, stack create twice).
func TestKeyringNoteOncePerProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the test breaks the keyring by pointing D-Bus nowhere, which only Linux's Secret Service uses")
	}
	// Not parallel: the keyring library reads the process environment.
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/loams-test-bus")
	server := testbin.Build(t, "./internal/testkit/testserver")
	for _, tc := range []struct {
		name string
		argv []string
	}{
		{"stack create", []string{"stack", "create", "dev", "--port-base", portBase(t)}},
		{"init", []string{"init", "--yes", "--no-agent", "--port-base", portBase(t), "--project-dir", t.TempDir()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SERVER_BINARY": server, "HOME": t.TempDir()}
			r := runLoams(t, env, true, tc.argv...)
			defer runLoams(t, env, false, "stack", "stop", "dev", "--grace", "2s")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if n := strings.Count(r.stderr, "no usable OS keyring"); n != 1 {
				t.Fatalf("keyring note printed %d times:\n%s", n, r.stderr)
			}
			i := strings.Index(r.stderr, "note: no usable OS keyring")
			if before := r.stderr[:i]; i < 0 || before != "" && !strings.HasSuffix(before, "\n") && !strings.HasSuffix(before, "\r\033[K") {
				t.Fatalf("note is not on its own line: %q", r.stderr)
			}
		})
	}
}
