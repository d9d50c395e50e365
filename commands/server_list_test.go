package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
)

// bareEnv is a machine with no server configured anywhere: a throwaway
// HOME and LOAMS_HOME, the system paths moved under an empty root (the
// loamstest seam), and PATH as given.
func bareEnv(t *testing.T, path string, extra ...string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LOAMS_") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(append(env, "PATH="+path, "HOME="+t.TempDir(), "LOAMS_HOME="+t.TempDir(), "LOAMS_SECRETS=file",
		"CI=true", "LOAMS_TEST_ROOT="+t.TempDir()), extra...)
}

type serverListJSON struct {
	Servers []struct {
		Path, Source, Version string
		IsServer              bool   `json:"is_server"`
		Used                  bool   `json:"used"`
		SkippedBecause        string `json:"skipped_because"`
	} `json:"servers"`
}

// The server ships as /usr/bin/loams, the CLI's own name: with this CLI
// first on PATH as `loams`, a copy of the CLI next, and the stand-in
// later, the stand-in is used, never a CLI, and `server list` says why.
func TestServerBehindTheCLIOnPath(t *testing.T) {
	t.Parallel()
	cli := testbin.Loams(t)
	cliDir, copyDir, srvDir := t.TempDir(), t.TempDir(), t.TempDir()
	self := testbin.Symlink(t, cli, filepath.Join(cliDir, "loams"))
	data, _ := os.ReadFile(cli)
	if err := testbin.WriteExecutable(filepath.Join(copyDir, "loams"), data); err != nil {
		t.Fatal(err)
	}
	srv := testbin.Symlink(t, testbin.Build(t, "./internal/testkit/testserver"), filepath.Join(srvDir, "loams"))
	env := bareEnv(t, strings.Join([]string{cliDir, copyDir, srvDir, "/usr/bin", "/bin"}, string(os.PathListSeparator)))

	out, errOut, code := run(t, env, self, "server", "list", "-o", "json")
	var l serverListJSON
	if code != 0 || json.Unmarshal([]byte(out), &l) != nil {
		t.Fatalf("server list: %d %s %s", code, out, errOut)
	}
	if len(l.Servers) != 3 {
		t.Fatalf("want 3 candidates: %+v", l.Servers)
	}
	if s := l.Servers[0]; s.Path != self || s.Used || !strings.Contains(s.SkippedBecause, "loams CLI itself") {
		t.Errorf("the CLI: %+v", s)
	}
	if s := l.Servers[1]; s.IsServer || s.Used || !strings.Contains(s.SkippedBecause, "not a Loams server") {
		t.Errorf("a copy of the CLI is not a server: %+v", s)
	}
	if s := l.Servers[2]; s.Path != srv || !s.Used || !s.IsServer || s.Version != "0.0.1" || s.Source != "loams on PATH" {
		t.Errorf("the stand-in: %+v", s)
	}
	if out, _, _ := run(t, env, self, "server", "list"); !strings.Contains(out, srv) || !strings.Contains(out, "used") {
		t.Errorf("table:\n%s", out)
	}

	out, errOut, code = run(t, env, self, "stack", "create", "--name", "dev", "--port-base", portBase(t), "-o", "json")
	defer run(t, env, self, "stack", "stop", "--name", "dev", "--grace", "2s")
	var d struct {
		State        string `json:"state"`
		ServerBinary string `json:"server_binary"`
	}
	_ = json.Unmarshal([]byte(out), &d)
	if code != 0 || d.State != "running" || d.ServerBinary != srv {
		t.Fatalf("stack create: %d %s %s", code, out, errOut)
	}
}

// LOAMS_SERVER_BINARY naming the CLI is a usage error, and neither the
// pass-through nor discovery starts the CLI again (the bug: 174 nested
// processes in 2 s). A wrapper counts every start of the CLI.
func TestServerBinaryIsTheCLI(t *testing.T) {
	t.Parallel()
	cli := testbin.Loams(t)
	dir := t.TempDir()
	count := filepath.Join(dir, "starts")
	wrapper := filepath.Join(dir, "loams-wrapper")
	if err := testbin.WriteExecutable(wrapper, []byte("#!/bin/sh\necho x >> "+count+"\nexec "+cli+" \"$@\"\n")); err != nil {
		t.Fatal(err)
	}
	starts := func() int { data, _ := os.ReadFile(count); return strings.Count(string(data), "\n") }

	env := bareEnv(t, "/usr/bin:/bin", "LOAMS_SERVER_BINARY="+cli)
	begin := time.Now()
	_, errOut, code := run(t, env, wrapper, "dev", "--help")
	if code != 2 || !strings.Contains(errOut, "is the loams CLI; the server is a different program") || starts() != 1 {
		t.Fatalf("dev --help with the CLI as server: exit %d, %d starts, %s", code, starts(), errOut)
	}
	_, errOut, code = run(t, env, wrapper, "stack", "create", "--name", "dev", "-o", "json")
	if code != 2 || !strings.Contains(errOut, `"usage"`) || starts() != 2 {
		t.Fatalf("stack create with the CLI as server: exit %d, %d starts, %s", code, starts(), errOut)
	}

	// A different file that runs the CLI (a wrapper, a copy): probed once
	// with the marker, it refuses to forward, so it is not a server.
	env = bareEnv(t, "/usr/bin:/bin", "LOAMS_SERVER_BINARY="+wrapper)
	_, errOut, code = run(t, env, wrapper, "dev", "--help")
	if code != 4 || !strings.Contains(errOut, "is not a Loams server") || starts() != 4 {
		t.Fatalf("dev --help with a CLI wrapper as server: exit %d, %d starts, want 4 (the run and its probe), %s", code, starts(), errOut)
	}
	if time.Since(begin) > 10*time.Second {
		t.Errorf("took %s", time.Since(begin))
	}
}

// The server as its .deb installs it: /usr/bin/loams (under the test
// root), with only this CLI on PATH.
func TestServerFromThePackage(t *testing.T) {
	t.Parallel()
	cli := testbin.Loams(t)
	cliDir := t.TempDir()
	self := testbin.Symlink(t, cli, filepath.Join(cliDir, "loams"))
	env := bareEnv(t, cliDir+":/usr/bin:/bin")
	pkg := testbin.Symlink(t, testbin.Build(t, "./internal/testkit/testserver"), filepath.Join(envValue(env, "LOAMS_TEST_ROOT"), "usr", "bin", "loams"))
	out, errOut, code := run(t, env, self, "server", "list", "-o", "text")
	if code != 0 || !strings.Contains(out, pkg+"\tpackage\t0.0.1\tused") {
		t.Fatalf("server list: %d %q %s", code, out, errOut)
	}
	out, _, _ = run(t, env, self, "server", "list", "-o", "json")
	var l serverListJSON
	_ = json.Unmarshal([]byte(out), &l)
	if len(l.Servers) != 2 || l.Servers[1].Path != pkg || l.Servers[1].Source != "package" || !l.Servers[1].Used {
		t.Errorf("server list: %s", out)
	}
}
