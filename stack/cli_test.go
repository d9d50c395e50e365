package stack_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// cliHome is a LOAMS_HOME for the built loams binary, with the file
// secret store and the stand-in server.
type cliHome struct {
	dir string
	env []string
}

func newCLIHome(t *testing.T) *cliHome {
	t.Helper()
	root := t.TempDir()
	h := &cliHome{dir: filepath.Join(root, "loams-home")}
	h.env = append(os.Environ(), "LOAMS_HOME="+h.dir, "LOAMS_SECRETS=file", "HOME="+root, "CI=true",
		"LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testkit/testserver"))
	t.Cleanup(func() {
		entries, _ := os.ReadDir(filepath.Join(h.dir, "stacks"))
		for _, e := range entries {
			if e.IsDir() {
				h.run(t, "stack", "stop", "--name", e.Name(), "--grace", "2s")
			}
		}
	})
	return h
}

// cliResult is one run of the binary; errObj is its JSON error, if any.
type cliResult struct {
	code   int
	stdout string
	stderr string
	errObj struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Hint    string         `json:"hint"`
		Details map[string]any `json:"details"`
	}
}

func (h *cliHome) run(t *testing.T, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(testbin.Loams(t), args...)
	cmd.Env, cmd.Dir = h.env, t.TempDir() // outside any project: create binds the one it runs in
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	r := cliResult{stdout: o.String(), stderr: e.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var wrapped struct {
		Error *json.RawMessage `json:"error"`
	}
	if json.Unmarshal(e.Bytes(), &wrapped) == nil && wrapped.Error != nil {
		_ = json.Unmarshal(*wrapped.Error, &r.errObj)
	}
	return r
}

// parallel runs n copies of one command at once, args(i) giving each its own.
func (h *cliHome) parallel(t *testing.T, n int, args func(i int) []string) []cliResult {
	t.Helper()
	out := make([]cliResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = h.run(t, args(i)...) }()
	}
	wg.Wait()
	return out
}

// Ten creates of one name at once: exactly one succeeds, the others are
// stack_exists, and the server that runs got the key that is stored (the
// key .env.loams will carry).
func TestParallelCreatesOfOneName(t *testing.T) {
	t.Parallel()
	h := newCLIHome(t)
	base := fmt.Sprint(portBase(t))
	res := h.parallel(t, 10, func(int) []string {
		return []string{"stack", "create", "--name", "dev", "--port-base", base, "--engines", "native", "-o", "json"}
	})
	var won []cliResult
	for _, r := range res {
		switch {
		case r.code == 0:
			won = append(won, r)
		case r.code != 5 || r.errObj.Code != "stack_exists":
			t.Errorf("a losing create must be stack_exists (exit 5): exit %d %s", r.code, r.stderr)
		}
	}
	if len(won) != 1 {
		t.Fatalf("%d creates succeeded, want exactly 1", len(won))
	}
	var d struct {
		PID int `json:"pid"`
	}
	if err := json.Unmarshal([]byte(won[0].stdout), &d); err != nil || d.PID == 0 {
		t.Fatalf("create output: %v %s", err, won[0].stdout)
	}
	stored, err := os.ReadFile(filepath.Join(h.dir, "stacks", "dev", "secrets", "api_key"))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		return // the server's environment is read from /proc
	}
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", d.PID))
	if err != nil {
		t.Fatal(err)
	}
	var serverKey string
	for _, kv := range strings.Split(string(environ), "\x00") {
		if v, ok := strings.CutPrefix(kv, "LOAMS_API_KEY="); ok {
			serverKey = v
		}
	}
	if serverKey == "" || serverKey != strings.TrimSpace(string(stored)) {
		t.Error("the running server's LOAMS_API_KEY is not the stored key")
	}
}

// Six creates of different names at once get six different port blocks:
// allocation and recording happen under one lock.
func TestParallelCreatesGetDistinctPorts(t *testing.T) {
	t.Parallel()
	h := newCLIHome(t)
	res := h.parallel(t, 6, func(i int) []string {
		return []string{"stack", "create", "--name", fmt.Sprintf("s%d", i), "--no-start", "-o", "json"}
	})
	owner := map[float64]string{}
	for i, r := range res {
		if r.code != 0 {
			t.Fatalf("create s%d: exit %d %s", i, r.code, r.stderr)
		}
		var d struct {
			Engines []struct {
				Endpoints map[string]string `json:"endpoints"`
			} `json:"engines"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
			t.Fatal(err)
		}
		for _, e := range d.Engines {
			for _, u := range e.Endpoints {
				var p float64
				_, port, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "grpc://"), ":")
				port, _, _ = strings.Cut(port, "/")
				fmt.Sscan(port, &p)
				if prev, ok := owner[p]; ok {
					t.Errorf("port %v given to both %s and s%d", p, prev, i)
				}
				owner[p] = fmt.Sprintf("s%d", i)
			}
		}
	}
}

// A crash at start in table mode prints the log tail its hint points to
// (JSON has it in details.log_tail).
func TestCrashAtStartShowsLogTail(t *testing.T) {
	t.Parallel()
	h := newCLIHome(t)
	h.env = append(h.env, "TESTSERVER_CRASH=metastore is corrupt")
	r := h.run(t, "stack", "create", "--name", "dev", "--port-base", fmt.Sprint(portBase(t)), "--engines", "native")
	if r.code != 7 || !strings.Contains(r.stderr, "log tail below") || !strings.Contains(r.stderr, "  loams: metastore is corrupt\n") {
		t.Fatalf("exit %d, stderr:\n%s\nwant the hint and the log tail below it", r.code, r.stderr)
	}
}

// Deleting a stack that is already gone succeeds, like stopping a stopped
// one: a script that deletes twice, or after a crash, is not an error.
func TestDeleteIsIdempotent(t *testing.T) {
	t.Parallel()
	h := newCLIHome(t)
	if r := h.run(t, "stack", "create", "--name", "dev", "--port-base", fmt.Sprint(portBase(t)), "--no-start"); r.code != 0 {
		t.Fatalf("create: %d %s", r.code, r.stderr)
	}
	if r := h.run(t, "stack", "delete", "--name", "dev", "--yes", "-o", "json"); r.code != 0 || !strings.Contains(r.stdout, `"deleted": true`) {
		t.Fatalf("delete: %d %s %s", r.code, r.stdout, r.stderr)
	}
	for _, args := range [][]string{{"--yes"}, {}} {
		r := h.run(t, append([]string{"stack", "delete", "--name", "dev", "-o", "json"}, args...)...)
		if r.code != 0 || !strings.Contains(r.stdout, `"already_gone": true`) {
			t.Errorf("delete again %v: exit %d %s %s", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := h.run(t, "stack", "delete", "--name", "Bad_Name", "--yes"); r.code != 2 {
		t.Errorf("an invalid name is still usage: %d", r.code)
	}
}
