package commands

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/internal/testkit/testports"
)

// cliEnv is a throwaway LOAMS_HOME with the stand-in server as the binary.
func cliEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	return append(os.Environ(), append([]string{"LOAMS_HOME=" + t.TempDir(), "LOAMS_SECRETS=file", "CI=true",
		"LOAMS_SERVER_BINARY=" + testbin.Build(t, "./internal/testkit/testserver")}, extra...)...)
}

func loams(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runProcess(t, env, "", testbin.Loams(t), args...)
}

// loamsIn is loams run in dir.
func loamsIn(t *testing.T, env []string, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runProcess(t, env, dir, testbin.Loams(t), args...)
}

// run is bin (a loams built some other way) with env.
func run(t *testing.T, env []string, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runProcess(t, env, "", bin, args...)
}

// runProcess runs bin with env in dir ("": a new empty directory outside
// any project, so no run binds this repository) and returns its
// output and exit code; failing to start it fails the test.
func runProcess(t *testing.T, env []string, dir, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir = env, dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// The newcomer's path from the issue: create, describe, logs, stop, delete.
func TestStackCLI(t *testing.T) {
	t.Parallel()
	env := cliEnv(t)
	base := portBase(t)
	out, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--port-base", base, "-o", "json")
	if code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	var d struct {
		State    string   `json:"state"`
		EnvNames []string `json:"env_names"`
		LogPath  string   `json:"log_path"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.State != "running" {
		t.Fatalf("create output: %v %s", err, out)
	}
	defer loams(t, env, "stack", "stop", "--name", "dev", "--grace", "2s")
	if out, _, _ := loams(t, env, "stack", "describe"); !strings.Contains(out, "running") || !strings.Contains(out, "http://127.0.0.1:"+port(base, 80)) {
		t.Errorf("describe (default stack) table:\n%s", out)
	}
	if out, _, _ := loams(t, env, "stack", "list", "-o", "text"); !strings.HasPrefix(out, "dev\trunning\t") {
		t.Errorf("list text: %q", out)
	}
	if out, _, _ := loams(t, env, "stack", "logs", "--name", "dev", "-o", "json"); !strings.Contains(out, `"lines"`) || !strings.Contains(out, "listening on") {
		t.Errorf("logs json: %s", out)
	}
	if _, errOut, code := loams(t, env, "stack", "delete", "--name", "dev", "-o", "json"); code != 3 || !strings.Contains(errOut, "confirmation_required") {
		t.Errorf("delete without --yes: %d %s", code, errOut)
	}
	if out, _, code := loams(t, env, "stack", "stop", "--name", "dev", "-o", "json"); code != 0 || !strings.Contains(out, `"stopped"`) {
		t.Errorf("stop: %d %s", code, out)
	}
	if _, errOut, code := loams(t, env, "stack", "delete", "--name", "dev", "--yes"); code != 0 {
		t.Errorf("delete --yes: %d %s", code, errOut)
	}
	if _, errOut, code := loams(t, env, "stack", "describe", "--name", "dev", "-o", "json"); code != 4 || !strings.Contains(errOut, "stack_not_found") {
		t.Errorf("describe after delete: %d %s", code, errOut)
	}
}

// A CLI killed in the middle of `stack start` leaves a server that the next
// describe and start understand: starting, then running, never two servers.
func TestStartKilledMidway(t *testing.T) {
	t.Parallel()
	wrapper := filepath.Join(t.TempDir(), "loams-server")
	script := "#!/bin/sh\nexport TESTSERVER_READY_DELAY=1500ms\nexec " + testbin.Build(t, "./internal/testkit/testserver") + " \"$@\"\n"
	if err := testbin.WriteExecutable(wrapper, []byte(script)); err != nil {
		t.Fatal(err)
	}
	env := cliEnv(t, "LOAMS_SERVER_BINARY="+wrapper)
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--port-base", portBase(t), "--no-start"); code != 0 {
		t.Fatal(errOut)
	}
	defer loams(t, env, "stack", "stop", "--name", "dev", "--grace", "2s")
	cmd := exec.Command(testbin.Loams(t), "stack", "start", "--name", "dev")
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	// Until the server is started (its pid file written) or the start
	// ended on its own: no deadline shorter than the test's, which a
	// loaded machine would overrun.
	pidFile := filepath.Join(envValue(env, "LOAMS_HOME"), "stacks", "dev", "server.pid")
	for started := false; !started; {
		select {
		case <-exited:
			t.Fatal("stack start ended before it wrote the pid file")
		case <-time.After(10 * time.Millisecond):
			_, err := os.Stat(pidFile)
			started = err == nil
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	out, _, _ := loams(t, env, "stack", "describe", "--name", "dev", "-o", "json")
	if !strings.Contains(out, `"starting"`) && !strings.Contains(out, `"running"`) {
		t.Fatalf("after a killed start: %s", out)
	}
	first := pidOf(t, out)
	out, errOut, code := loams(t, env, "stack", "start", "--name", "dev", "-o", "json")
	if code != 0 || pidOf(t, out) != first {
		t.Fatalf("start after a killed start must adopt the same server: %d %s %s", code, out, errOut)
	}
}

func pidOf(t *testing.T, describeJSON string) int {
	var d struct{ PID int }
	_ = json.Unmarshal([]byte(describeJSON), &d)
	return d.PID
}

func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if strings.HasPrefix(kv, key+"=") {
			v = strings.TrimPrefix(kv, key+"=")
		}
	}
	return v
}

// portBase is a block of ports for this test's --port-base, claimed from
// every test process of the run (internal/testkit/testports).
func portBase(t *testing.T) string { return strconv.Itoa(testports.Block(t)) }

// port is the port at offset in the block at base (a portBase).
func port(base string, offset int) string {
	n, _ := strconv.Atoi(base)
	return strconv.Itoa(n + offset)
}
