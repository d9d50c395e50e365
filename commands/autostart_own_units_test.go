//go:build linux

package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/autostart"
)

// `autostart off` removes only the unit loams wrote for that stack: a
// user's own loams-stack-dev.service that merely quotes the marker text,
// or one loams wrote for another stack, stays; the dry run of `on` shows
// an environment value with a newline escaped inside its quotes, never as
// a line of its own.
func TestAutostartTouchesOnlyItsOwnUnits(t *testing.T) {
	t.Parallel()
	cfg := t.TempDir()
	env := cliEnv(t, "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+cfg, "XDG_RUNTIME_DIR=", "LOAMS_NO_UPDATE_NOTIFIER=1")
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--no-start"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	unit := filepath.Join(cfg, "systemd", "user", autostart.UnitName("dev"))
	os.MkdirAll(filepath.Dir(unit), 0o755)
	for _, body := range []string{
		"[Unit]\n# mine, modelled on one " + autostart.Marker + " for stack dev.\n[Service]\nExecStart=/bin/true\n",
		"# " + autostart.Marker + " for stack prod.\n[Service]\nExecStart=/bin/true\n",
	} {
		os.WriteFile(unit, []byte(body), 0o644)
		_, errOut, code := loams(t, env, "stack", "autostart", "off", "--name", "dev", "-o", "json")
		if now, err := os.ReadFile(unit); err != nil || string(now) != body || code == 0 {
			t.Errorf("exit %d; the user's unit was removed or changed (%v): %s", code, err, errOut)
		}
	}

	withNewline := append(append([]string(nil), env...), "LOAMS_SECRETS=file\nExecStartPre=/bin/sh -c 'touch /tmp/x'")
	out, errOut, _ := loams(t, withNewline, "stack", "autostart", "on", "dev", "--dry-run", "--os", "linux")
	for _, line := range strings.Split(out+errOut, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "ExecStartPre") {
			t.Errorf("LOAMS_SECRETS added a line to the unit:\n%s%s", out, errOut)
		}
	}
}
