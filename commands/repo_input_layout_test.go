package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// How a repository may write its [dev] table: quoted or spaced headers,
// dotted keys, CRLF, a byte order mark, another case. stack create binds
// the project where TOML (and the server's strict parser) reads [dev],
// and every other byte stays.
func TestRepoManifestLayoutsBind(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary")
	}
	u := newRepoUser(t)
	// The profile the manifests name must exist: a named profile is never made up.
	if r := u.run(u.home, "configure", "set", "output", "table"); r.code != 0 {
		t.Fatalf("configure set: %s", r.stderr)
	}
	for name, c := range map[string]struct{ in, want string }{
		"quoted": {"[\"dev\"] # ours\nprofile = \"default\"\n", "[\"dev\"] # ours\nprofile = \"default\"\nstack = \"quoted\"\n"},
		"spaced": {"[ dev ]\nprofile = \"default\"\n\n[functions]\n", "[ dev ]\nprofile = \"default\"\nstack = \"spaced\"\n\n[functions]\n"},
		// A [dev] header after dev.profile defines dev twice: TOML 1.0
		// refuses it (BurntSushi/toml does not), so the binding is dotted too.
		"dotted": {"dev.profile = \"default\"\n\n[functions]\n", "dev.profile = \"default\"\ndev.stack = \"dotted\"\n\n[functions]\n"},
		"crlf":   {"[dev]\r\nprofile = \"default\"\r\n", "[dev]\r\nprofile = \"default\"\r\nstack = \"crlf\"\r\n"},
		"bom":    {"\ufeff[dev]\nprofile = \"default\"\n", "\ufeff[dev]\nprofile = \"default\"\nstack = \"bom\"\n"},
		// [DEV] is not [dev]: TOML keys have case.
		"upper": {"[DEV]\nstack = \"zzz\"\n", "[DEV]\nstack = \"zzz\"\n\n[dev]\nstack = \"upper\"\n"},
	} {
		dir := u.repo(name, c.in)
		if r := u.run(dir, "stack", "create", name, "--no-start"); r.code != 0 {
			t.Errorf("%s: stack create: exit %d\n%s", name, r.code, r.stderr)
			continue
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "loams.toml")); string(got) != c.want {
			t.Errorf("%s: loams.toml is\n%q\nwant\n%q", name, got, c.want)
		}
		if r := u.run(dir, "-o", "json", "stack", "describe"); r.code != 0 || !strings.Contains(r.stdout, `"name": "`+name+`"`) {
			t.Errorf("%s: stack describe: exit %d\n%s%s", name, r.code, r.stdout, r.stderr)
		}
	}
}

// A loams.toml that is a symlink to a device (here /dev/zero, mode 0666)
// is a symlink out of the project, not a file "writable by others" whose
// fix would be `chmod go-w` on the symlink, that is on /dev/zero.
func TestRepoManifestSymlinkToDevice(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary")
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	u := newRepoUser(t)
	dir := u.repo("dev", "")
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "loams.toml")); err != nil {
		t.Fatal(err)
	}
	r := u.run(dir, "-o", "json", "stack", "describe")
	if r.code != 8 || !strings.Contains(r.stderr, `"path_outside_project"`) || strings.Contains(r.stderr, "chmod") {
		t.Errorf("stack describe: exit %d\n%s", r.code, r.stderr)
	}
	if res, isErr := u.callTool(dir, "env_export", map[string]any{}); !isErr || res["error"] != "path_outside_project" {
		t.Errorf("env_export: %v", res)
	}
}

// $HOME reached through a symlink (/home → /usr/home, an automounter) while
// the working directory is the physical path: the search still stops
// before $HOME, so neither a loams.toml in $HOME nor one above it chooses.
func TestManifestSearchStopsAtSymlinkedHome(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary")
	}
	u := newRepoUser(t)
	root := t.TempDir()
	realHome := filepath.Join(root, "data", "u")
	work := filepath.Join(realHome, "work", "x")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "homelink")
	if err := os.Symlink(realHome, link); err != nil {
		t.Fatal(err)
	}
	u.env = append(u.env, "HOME="+link, "LOAMS_HOME="+filepath.Join(link, ".loams"), "PWD="+work)
	for _, dir := range []string{realHome, filepath.Dir(realHome)} {
		if err := os.WriteFile(filepath.Join(dir, "loams.toml"), []byte("[dev]\nstack = \"planted\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := u.run(work, "-o", "json", "stack", "describe")
		if strings.Contains(r.stderr, "planted") || !strings.Contains(r.stderr, `"stack_not_found"`) {
			t.Errorf("%s chose the stack: exit %d\n%s", dir, r.code, r.stderr)
		}
		os.Remove(filepath.Join(dir, "loams.toml"))
	}
}
