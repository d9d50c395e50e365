package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

type doctorJSON struct {
	Checks []doctorCheck `json:"checks"`
}

func (d doctorJSON) status(name string) string {
	for _, c := range d.Checks {
		if c.Name == name {
			return c.Status
		}
	}
	return "absent"
}

// A good setup passes (exit 0); a world-writable LOAMS_HOME and a crashed
// stack fail (exit 5), each named with a fix.
func TestDoctor(t *testing.T) {
	t.Parallel()
	cli := testbin.Loams(t)
	env := bareEnv(t, "/usr/bin:/bin", "LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testkit/testserver"))
	loamsHome := envValue(env, "LOAMS_HOME")
	if _, errOut, code := run(t, env, cli, "stack", "create", "--name", "dev", "--port-base", portBase(t), "--engines", "qdrant"); code != 0 {
		t.Fatal(errOut)
	}
	defer run(t, env, cli, "stack", "stop", "--name", "dev", "--grace", "2s")

	out, errOut, code := run(t, env, cli, "doctor", "-o", "json")
	var d doctorJSON
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || errOut != "" {
		t.Fatalf("healthy: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, name := range []string{"server", "other_servers", "loams_home", "stack dev", "secrets", "agents"} {
		if d.status(name) != checkPass {
			t.Errorf("healthy %s: %s\n%s", name, d.status(name), out)
		}
	}

	// An installed server marked current that has gone is a warning (the
	// stand-in named by LOAMS_SERVER_BINARY is still used).
	if err := os.MkdirAll(filepath.Join(loamsHome, "servers"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(loamsHome, "servers", "current"), []byte(filepath.Join(loamsHome, "servers", "0.1.0", "standard", "loams")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code = run(t, env, cli, "doctor", "-o", "json")
	d = doctorJSON{}
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || d.status("installed server") != checkWarn || d.status("server") != checkPass {
		t.Errorf("current install gone: exit %d\n%s", code, out)
	}

	// Broken: LOAMS_HOME open to everyone, and the stack's server killed.
	if err := os.Chmod(loamsHome, 0o777); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(loamsHome, 0o700)
	desc, _, _ := run(t, env, cli, "stack", "describe", "--name", "dev", "-o", "json")
	if p, err := os.FindProcess(pidOf(t, desc)); err == nil {
		_ = p.Kill()
	}
	// The kill is asynchronous, and an orphan may stay a zombie where
	// nothing reaps it: a recorded start time that no longer matches is
	// what loams reads as crashed either way (a pid that is not ours).
	pidPath := filepath.Join(loamsHome, "stacks", "dev", "server.pid")
	var rec map[string]any
	data, _ := os.ReadFile(pidPath)
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("server.pid: %v %s", err, data)
	}
	rec["start_time"] = "0"
	data, _ = json.Marshal(rec)
	if err := os.WriteFile(pidPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = run(t, env, cli, "doctor", "-o", "json")
	d = doctorJSON{}
	if code != 5 || json.Unmarshal([]byte(out), &d) != nil || d.status("loams_home") != checkFail || d.status("stack dev") != checkFail {
		t.Fatalf("broken: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, c := range d.Checks {
		if c.Status != checkPass && c.Status != checkInfo && c.Fix == "" {
			t.Errorf("%s has no fix", c.Name)
		}
	}
	out, errOut, code = run(t, env, cli, "doctor", "--stack", "dev")
	if code != 5 || !strings.Contains(out, "chmod 700 "+loamsHome) || !strings.Contains(errOut, "error: 2 check(s) failed: loams_home, stack dev") {
		t.Errorf("table: exit %d\n%s\n%s", code, out, errOut)
	}
}

// Issue 21: with no server anywhere, doctor's fix names ways that work
// while nothing is published, and following either one fixes it.
func TestDoctorServerFixWorks(t *testing.T) {
	t.Parallel()
	cli, server := testbin.Loams(t), testbin.Build(t, "./internal/testkit/testserver")
	env := bareEnv(t, "/usr/bin:/bin")
	serverCheck := func(env []string) doctorCheck {
		t.Helper()
		out, errOut, _ := run(t, env, cli, "doctor", "-o", "json")
		var d doctorJSON
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("doctor: %v\n%s\n%s", err, out, errOut)
		}
		for _, c := range d.Checks {
			if c.Name == "server" {
				return c
			}
		}
		t.Fatalf("no server check:\n%s", out)
		return doctorCheck{}
	}
	c := serverCheck(env)
	if c.Status != checkFail || !strings.Contains(c.Fix, "LOAMS_SERVER_BINARY=PATH") || !strings.Contains(c.Fix, "loams server install --from FILE") {
		t.Fatalf("no server: %+v", c)
	}
	if c := serverCheck(append(env, "LOAMS_SERVER_BINARY="+server)); c.Status != checkPass {
		t.Errorf("after LOAMS_SERVER_BINARY=PATH: %+v", c)
	}
	if _, errOut, code := run(t, env, cli, "server", "install", "--from", server); code != 0 {
		t.Fatalf("server install --from: exit %d\n%s", code, errOut)
	}
	if c := serverCheck(env); c.Status != checkPass {
		t.Errorf("after server install --from: %+v", c)
	}
}
