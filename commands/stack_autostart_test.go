package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/testkit/testbin"
)

// managerEnv is a stack home plus stand-ins for systemctl, launchctl and
// schtasks on PATH (testdata/service-manager-standin.sh), which record
// their arguments in the returned log and run `loams stack run` as the
// real managers would.
func managerEnv(t *testing.T, goos string) (env []string, log string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the service manager stand-ins are shell scripts using setsid")
	}
	bin := t.TempDir()
	script, err := filepath.Abs("testdata/service-manager-standin.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"systemctl", "launchctl", "schtasks", "loginctl"} {
		if err := os.Symlink(script, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	user := t.TempDir()
	log = filepath.Join(t.TempDir(), "calls.log")
	env = cliEnv(t, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+user, "XDG_CONFIG_HOME="+filepath.Join(user, ".config"),
		"XDG_RUNTIME_DIR="+t.TempDir(), "STANDIN_LOG="+log, "LOAMS_BIN="+testbin.Loams(t), "LOAMS_TEST_AUTOSTART_OS="+goos,
		"USERDOMAIN=HOST", "USERNAME=ann")
	return env, log
}

func calls(t *testing.T, log string) string {
	t.Helper()
	data, _ := os.ReadFile(log)
	return string(data)
}

type described struct {
	State     string `json:"state"`
	PID       *int   `json:"pid"`
	Autostart string `json:"autostart"`
}

func describeStack(t *testing.T, env []string, name string) described {
	t.Helper()
	out, errOut, code := loams(t, env, "stack", "describe", name, "-o", "json")
	var d described
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil {
		t.Fatalf("describe: %d %s %s", code, out, errOut)
	}
	return d
}

// The whole life of an autostarted stack, on each platform's flow: on
// (the manager starts it), describe/list say so, stop and start go
// through the manager, delete turns it off first.
func TestAutostartLifecycle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		goos, on, start, stop, off string
		file                       func(env []string) string
	}{
		{"linux", "systemctl --user daemon-reload\nsystemctl --user enable --now loams-stack-dev.service",
			"systemctl --user start loams-stack-dev.service", "systemctl --user stop loams-stack-dev.service",
			"systemctl --user disable --now loams-stack-dev.service\nsystemctl --user daemon-reload",
			func(env []string) string {
				return filepath.Join(envValue(env, "XDG_CONFIG_HOME"), "systemd", "user", "loams-stack-dev.service")
			}},
		{"darwin", "launchctl bootstrap gui/" + uid() + " ", "launchctl kickstart gui/" + uid() + "/dev.loams.stack.dev",
			"launchctl kill SIGTERM gui/" + uid() + "/dev.loams.stack.dev", "launchctl bootout gui/" + uid() + "/dev.loams.stack.dev",
			func(env []string) string {
				return filepath.Join(envValue(env, "HOME"), "Library", "LaunchAgents", "dev.loams.stack.dev.plist")
			}},
		{"windows", `schtasks /Create /TN \loams\stack-dev /XML `, `schtasks /Run /TN \loams\stack-dev`,
			`schtasks /End /TN \loams\stack-dev`, `schtasks /Delete /TN \loams\stack-dev /F`,
			func(env []string) string {
				return filepath.Join(envValue(env, "LOAMS_HOME"), "stacks", "dev", "autostart-task.xml")
			}},
	} {
		t.Run(tc.goos, func(t *testing.T) {
			t.Parallel()
			env, log := managerEnv(t, tc.goos)
			if _, errOut, code := loams(t, env, "stack", "create", "dev", "--port-base", portBase(t)); code != 0 {
				t.Fatalf("create: %d %s", code, errOut)
			}
			// A running stack is handed over to the manager.
			before := describeStack(t, env, "dev")
			if before.State != "running" || before.Autostart != "off" {
				t.Fatalf("before: %+v", before)
			}
			out, errOut, code := loams(t, env, "stack", "autostart", "on", "dev", "-o", "json")
			t.Cleanup(func() { loams(t, env, "stack", "delete", "dev", "--yes") })
			if code != 0 || !strings.Contains(out, `"autostart": "on"`) || !strings.Contains(out, `"state": "running"`) {
				t.Fatalf("on: %d %s %s\ncalls:\n%s", code, out, errOut, calls(t, log))
			}
			if !strings.Contains(calls(t, log), tc.on) {
				t.Errorf("on issued:\n%s\nwant:\n%s", calls(t, log), tc.on)
			}
			if _, err := os.Stat(tc.file(env)); err != nil {
				t.Errorf("registration file: %v", err)
			}
			d := describeStack(t, env, "dev")
			if d.State != "running" || d.Autostart != "on" || d.PID == nil || *d.PID == *before.PID {
				t.Errorf("after on: %+v (before: pid %d)", d, *before.PID)
			}
			if out, _, _ := loams(t, env, "stack", "list", "-o", "text"); !strings.HasSuffix(strings.TrimSpace(out), "\ton") {
				t.Errorf("list: %q", out)
			}
			if out, errOut, code := loams(t, env, "stack", "stop", "dev", "-o", "json"); code != 0 || !strings.Contains(out, `"stopped"`) || !strings.Contains(calls(t, log), tc.stop) {
				t.Errorf("stop: %d %s %s\ncalls:\n%s", code, out, errOut, calls(t, log))
			}
			if tc.goos == "linux" {
				// The agent's stack_start goes through the same manager, and
				// stack_status says who owns the stack (issue 28).
				mcpStartsThroughManager(t, env, log, tc.start)
				loams(t, env, "stack", "stop", "dev")
			}
			if out, errOut, code := loams(t, env, "stack", "start", "dev", "-o", "json"); code != 0 || !strings.Contains(out, `"running"`) || !strings.Contains(calls(t, log), tc.start) {
				t.Errorf("start: %d %s %s\ncalls:\n%s", code, out, errOut, calls(t, log))
			}
			if out, _, code := loams(t, env, "stack", "autostart", "status", "dev", "-o", "json"); code != 0 ||
				!strings.Contains(out, `"active": true`) || !strings.Contains(out, `"program_exists": true`) {
				t.Errorf("status: %d %s", code, out)
			}
			if _, errOut, code := loams(t, env, "stack", "delete", "dev", "--yes"); code != 0 || !strings.Contains(calls(t, log), tc.off) {
				t.Errorf("delete: %d %s\ncalls:\n%s", code, errOut, calls(t, log))
			}
			if _, err := os.Stat(tc.file(env)); tc.goos != "windows" && !os.IsNotExist(err) {
				t.Errorf("delete left the registration file: %v", err)
			}
		})
	}
}

func uid() string { return strconv.Itoa(os.Getuid()) }

// Without a user manager (a container, sudo) autostart refuses with its
// code, and writes nothing.
func TestAutostartWithoutUserManager(t *testing.T) {
	t.Parallel()
	env, log := managerEnv(t, "linux")
	if _, errOut, code := loams(t, env, "stack", "create", "dev", "--no-start", "--port-base", portBase(t)); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	unit := filepath.Join(envValue(env, "XDG_CONFIG_HOME"), "systemd", "user", "loams-stack-dev.service")
	for name, extra := range map[string]string{"no XDG_RUNTIME_DIR": "XDG_RUNTIME_DIR=", "systemctl --user fails": "STANDIN_FAIL=systemctl show-environment"} {
		_, errOut, code := loams(t, append(env, extra), "stack", "autostart", "on", "dev", "-o", "json")
		if code != 6 || !strings.Contains(errOut, "service_manager_unavailable") {
			t.Errorf("%s: %d %s", name, code, errOut)
		}
		// status does not present a manager that just failed as the one in charge.
		if out, _, code := loams(t, append(env, extra), "stack", "autostart", "status", "dev", "-o", "json"); code != 0 ||
			!strings.Contains(out, `"manager_reachable": false`) || !strings.Contains(out, `"manager_problem": "`) {
			t.Errorf("%s: status: %d %s", name, code, out)
		}
		if _, err := os.Stat(unit); !os.IsNotExist(err) {
			t.Errorf("%s: a unit was written", name)
		}
	}
	if c := calls(t, log); strings.Contains(c, "enable") {
		t.Errorf("enabled without a manager:\n%s", c)
	}
}

// --dry-run shows the file and the commands, for any platform, and
// touches nothing.
func TestAutostartDryRun(t *testing.T) {
	t.Parallel()
	env, log := managerEnv(t, "linux")
	if _, errOut, code := loams(t, env, "stack", "create", "dev", "--no-start", "--port-base", portBase(t)); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	for goos, want := range map[string]string{"linux": "WantedBy=default.target", "darwin": "<key>RunAtLoad</key>", "windows": "<LogonTrigger>"} {
		out, errOut, code := loams(t, env, "stack", "autostart", "on", "dev", "--dry-run", "--os", goos)
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, testbin.Loams(t)) {
			t.Errorf("%s: %d %s %s", goos, code, out, errOut)
		}
	}
	if _, errOut, code := loams(t, env, "stack", "autostart", "on", "dev", "--os", "darwin"); code != 2 {
		t.Errorf("--os without --dry-run: %d %s", code, errOut)
	}
	if c := calls(t, log); c != "" {
		t.Errorf("dry run called the manager:\n%s", c)
	}
}

// doctor catches a registration whose loams is gone (moved by an
// upgrade), and says when lingering is off.
func TestDoctorAutostart(t *testing.T) {
	t.Parallel()
	env, _ := managerEnv(t, "linux")
	moved := filepath.Join(t.TempDir(), "loams")
	data, err := os.ReadFile(testbin.Loams(t))
	if err != nil || os.WriteFile(moved, data, 0o755) != nil {
		t.Fatal(err)
	}
	if _, errOut, code := loams(t, env, "stack", "create", "dev", "--no-start", "--port-base", portBase(t)); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	if _, errOut, code := run(t, env, moved, "stack", "autostart", "on", "dev"); code != 0 {
		t.Fatalf("on: %d %s", code, errOut)
	}
	t.Cleanup(func() { loams(t, env, "stack", "delete", "dev", "--yes") })
	statuses := func(env []string) (map[string]string, int) {
		out, _, code := loams(t, env, "doctor", "--stack", "dev", "-o", "json")
		var r struct{ Checks []doctorCheck }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("doctor: %v %s", err, out)
		}
		m := map[string]string{}
		for _, c := range r.Checks {
			m[c.Name] = c.Status
		}
		return m, code
	}
	// Another loams registered it: a warning.
	if got, _ := statuses(env); got["autostart dev"] != "warn" || got["autostart lingering"] != "warn" {
		t.Errorf("doctor: %v", got)
	}
	os.Remove(moved)
	got, code := statuses(append(env, "STANDIN_LINGER=yes"))
	if got["autostart dev"] != "fail" || got["autostart lingering"] != "pass" || code != 5 {
		t.Errorf("doctor after the move: %d %v", code, got)
	}
}

// mcpStartsThroughManager calls stack_start on a stopped autostarted
// stack from `loams mcp serve`: the manager must be asked (start), never
// a second supervisor of our own.
func mcpStartsThroughManager(t *testing.T, env []string, log, start string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	session, _ := mcpSession(t, ctx, env, t.TempDir())
	defer session.Close()
	before := calls(t, log)
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "stack_start", Arguments: map[string]any{"name": "dev"}})
	if err != nil || res.IsError {
		t.Fatalf("stack_start: %v %+v", err, res)
	}
	if issued := strings.TrimPrefix(calls(t, log), before); !strings.Contains(issued, start) {
		t.Errorf("MCP stack_start issued:\n%s\nwant:\n%s", issued, start)
	}
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "stack_status", Arguments: map[string]any{"name": "dev"}})
	raw, _ := json.Marshal(res.StructuredContent)
	if err != nil || !strings.Contains(string(raw), `"autostart":"on"`) || !strings.Contains(string(raw), `"state":"running"`) {
		t.Errorf("stack_status: %v %s", err, raw)
	}
}
