package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/treecopy/treecopytest"
)

// loamsHomeOf is the LOAMS_HOME of a cliEnv.
func loamsHomeOf(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "LOAMS_HOME="); ok {
			return v
		}
	}
	return ""
}

// apiKey is the LOAMS_API_KEY that env export gives for a stack.
func apiKey(t *testing.T, env []string, name string) string {
	t.Helper()
	out, errOut, code := loams(t, env, "env", "export", "--stack", name)
	vars := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			vars[k] = strings.Trim(v, `'"`)
		}
	}
	if code != 0 || vars["LOAMS_API_KEY"] == "" {
		t.Fatalf("env export %s: %d %s %s", name, code, out, errOut)
	}
	return vars["LOAMS_API_KEY"] + " " + vars["LOAMS_URL"]
}

// Snapshot, a "migration", restore, and clones, through the built binary:
// every file's SHA-256 and every symlink's target come back.
func TestSnapshotRestoreCloneCLI(t *testing.T) {
	t.Parallel()
	env := cliEnv(t)
	home := loamsHomeOf(env)
	dir := filepath.Join(home, "stacks", "dev")
	if _, errOut, code := loams(t, env, "stack", "create", "dev", "--port-base", portBase(t), "--engines", "native"); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	defer loams(t, env, "stack", "stop", "dev", "--grace", "2s")
	original := treecopytest.Sums(t, dir)

	out, errOut, code := loams(t, env, "stack", "snapshot", "dev", "--as", "before", "-o", "json")
	var snap struct {
		Name, Path     string
		DowntimeMS     int64  `json:"downtime_ms"`
		Restarted      bool   `json:"restarted"`
		ManifestSHA256 string `json:"manifest_sha256"`
		Files          int64  `json:"files"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &snap) != nil {
		t.Fatalf("snapshot: %d %s %s", code, out, errOut)
	}
	if snap.Name != "before" || !snap.Restarted || snap.DowntimeMS <= 0 || len(snap.ManifestSHA256) != 64 {
		t.Errorf("snapshot result: %s", out)
	}
	treecopytest.Equal(t, "snapshot", treecopytest.Sums(t, snap.Path), original)
	meta, _ := os.ReadFile(filepath.Join(snap.Path, "snapshot.json"))
	for _, k := range []string{`"name"`, `"stack"`, `"created_at"`, `"server_version"`, `"bytes"`, `"files"`, `"manifest_sha256"`} {
		if !strings.Contains(string(meta), k) {
			t.Errorf("snapshot.json has no %s: %s", k, meta)
		}
	}
	keyBefore := apiKey(t, env, "dev")
	if out, _, _ := loams(t, env, "doctor", "-o", "json"); !strings.Contains(out, `"name": "snapshots"`) || !strings.Contains(out, "dev 1 (") {
		t.Errorf("doctor shows no snapshot disk use:\n%s", out)
	}

	// The migration the agent ran: a rewritten file, a new one, a removed one.
	_ = os.WriteFile(filepath.Join(dir, "data", "catalog.json"), []byte(`{"v":2}`), 0o600)
	_ = os.WriteFile(filepath.Join(dir, "hot", "cache", "0003.blk"), []byte("new"), 0o600)
	_ = os.Remove(filepath.Join(dir, "data", "segments", "000001.seg"))
	migrated := treecopytest.Sums(t, dir)

	out, errOut, code = loams(t, env, "stack", "restore", "dev", "before", "-o", "json")
	var res struct{ Before string }
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || !strings.HasPrefix(res.Before, "before-restore-") {
		t.Fatalf("restore: %d %s %s", code, out, errOut)
	}
	treecopytest.Equal(t, "restored", treecopytest.Sums(t, dir), original)
	treecopytest.Equal(t, "kept", treecopytest.Sums(t, filepath.Join(dir, "snapshots", res.Before)), migrated)
	if got := apiKey(t, env, "dev"); got != keyBefore {
		t.Errorf("restore changed the key or ports: %s → %s", keyBefore, got)
	}
	if out, _, _ := loams(t, env, "stack", "describe", "dev", "-o", "text"); !strings.Contains(out, "state\trunning") {
		t.Errorf("not running after restore: %s", out)
	}

	// Clones of the live stack and of a snapshot.
	if out, errOut, code := loams(t, env, "stack", "create", "feature", "--from", "dev", "--port-base", portBase(t), "-o", "json"); code != 0 || !strings.Contains(out, `"from": "dev"`) {
		t.Fatalf("clone: %d %s %s", code, out, errOut)
	}
	defer loams(t, env, "stack", "stop", "feature", "--grace", "2s")
	treecopytest.Equal(t, "clone", treecopytest.Sums(t, filepath.Join(home, "stacks", "feature")), original)
	if a, b := apiKey(t, env, "feature"), apiKey(t, env, "dev"); strings.Fields(a)[0] == strings.Fields(b)[0] || strings.Fields(a)[1] == strings.Fields(b)[1] {
		t.Errorf("clone shares key or port with its source: %s / %s", a, b)
	}
	if _, errOut, code := loams(t, env, "stack", "create", "review", "--from", "dev@"+res.Before, "--no-start", "--port-base", portBase(t)); code != 0 {
		t.Fatalf("clone of a snapshot: %d %s", code, errOut)
	}
	treecopytest.Equal(t, "clone of a snapshot", treecopytest.Sums(t, filepath.Join(home, "stacks", "review")), migrated)
	treecopytest.Equal(t, "source", treecopytest.Sums(t, dir), original)

	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"stack", "restore", "dev", "nope"}, 4, "snapshot_not_found"},
		{[]string{"stack", "create", "x", "--from", "dev@nope"}, 4, "snapshot_not_found"},
		{[]string{"stack", "create", "x", "--from", "ghost"}, 4, "stack_not_found"},
		{[]string{"stack", "create", "Bad_Name", "--from", "dev"}, 2, "usage"},
		{[]string{"stack", "create", "x", "--from", "dev", "--engines", "es"}, 2, "usage"},
		{[]string{"stack", "snapshot", "dev", "--as", "before"}, 5, "snapshot_exists"},
		{[]string{"stack", "snapshot", "dev", "--as", "../x"}, 2, "usage"},
		{[]string{"stack", "restore", "dev"}, 2, "usage"},
		{[]string{"stack", "snapshot", "delete", "dev", "before"}, 3, "confirmation_required"},
	} {
		_, errOut, code := loams(t, env, append(tc.args, "-o", "json")...)
		if code != tc.code || !strings.Contains(errOut, `"code": "`+tc.err+`"`) {
			t.Errorf("%v: exit %d %s, want %d %s", tc.args, code, errOut, tc.code, tc.err)
		}
	}
	out, _, _ = loams(t, env, "stack", "snapshot", "list", "dev", "-o", "text")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[0], "dev\tbefore\t") {
		t.Errorf("snapshot list:\n%s", out)
	}
	if _, errOut, code := loams(t, env, "stack", "snapshot", "delete", "dev", "before", "--yes"); code != 0 {
		t.Fatalf("delete: %d %s", code, errOut)
	}
	if _, err := os.Stat(snap.Path); !os.IsNotExist(err) {
		t.Errorf("the snapshot is still there: %v", err)
	}
}
