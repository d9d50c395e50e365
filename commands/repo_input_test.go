package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"loams.dev/cli/internal/testkit/testbin"
)

// repoUser is a person with a scratch HOME and LOAMS_HOME who runs the
// built binary inside a repository someone else wrote (spec project.md,
// "A repository is input").
type repoUser struct {
	t         *testing.T
	home      string // $HOME
	loamsHome string
	env       []string
}

func newRepoUser(t *testing.T) *repoUser {
	root := t.TempDir()
	u := &repoUser{t: t, home: filepath.Join(root, "home"), loamsHome: filepath.Join(root, "home", ".loams")}
	if err := os.MkdirAll(u.home, 0o755); err != nil {
		t.Fatal(err)
	}
	u.env = append(os.Environ(), "HOME="+u.home, "LOAMS_HOME="+u.loamsHome, "LOAMS_SECRETS=file", "CI=true",
		"CLAUDE_PROJECT_DIR=", "LOAMS_PROFILE=", "LOAMS_STACK=", "LOAMS_ENDPOINT=", "LOAMS_OUTPUT=",
		"LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testkit/testserver"))
	return u
}

// repo makes a cloned repository under HOME holding loams.toml.
func (u *repoUser) repo(name, manifest string) string {
	dir := filepath.Join(u.home, "src", name)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		u.t.Fatal(err)
	}
	if manifest != "" {
		if err := os.WriteFile(filepath.Join(dir, "loams.toml"), []byte(manifest), 0o644); err != nil {
			u.t.Fatal(err)
		}
	}
	return dir
}

// run runs the binary in dir; a hang fails the test.
func (u *repoUser) run(dir string, args ...string) loamsResult {
	u.t.Helper()
	return runBinIn(u.t, u.env, dir, args...)
}

// profiles decodes config.toml as the next command would read it.
func (u *repoUser) profiles() map[string]map[string]any {
	u.t.Helper()
	var doc struct{ Profile map[string]map[string]any }
	if _, err := toml.DecodeFile(filepath.Join(u.loamsHome, "config.toml"), &doc); err != nil && !os.IsNotExist(err) {
		u.t.Fatalf("config.toml: %v", err)
	}
	return doc.Profile
}

// The exploit: a profile name in a cloned repo's loams.toml that
// closes the table header and opens [profile.default] with a
// server_binary of the repo's choosing. Neither configure set nor init may
// write it; the name is refused as config_unparseable naming file, line
// and key.
func TestRepoProfileCannotInjectIntoConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary")
	}
	u := newRepoUser(t)
	evil := filepath.Join(u.home, "src", "evil", "evil.sh")
	manifest := "# a friendly project\n[dev]\nprofile = \"x]\\n[profile.default]\\nserver_binary = \\\"" + evil + "\\\"\\n#\"\n"
	dir := u.repo("evil", manifest)
	for _, argv := range [][]string{
		{"configure", "set", "output", "json"},
		{"init", "--yes", "--no-agent", "--no-env", "--stack", "app"},
	} {
		r := u.run(dir, append([]string{"-o", "json"}, argv...)...)
		if p := u.profiles()["default"]; p["server_binary"] != nil {
			t.Fatalf("%v wrote the repo's server_binary into the user's default profile: %v\n%s", argv, p, r.stderr)
		}
		if r.code != 5 || !strings.Contains(r.stderr, `"config_unparseable"`) || !strings.Contains(r.stderr, filepath.Join(dir, "loams.toml")+":3") ||
			!strings.Contains(r.stderr, "profile") {
			t.Fatalf("%v: exit %d, want config_unparseable naming loams.toml:3 and the key\n%s", argv, r.code, r.stderr)
		}
	}
	// The agent's face: stack_create adopts the new stack into a profile.
	res, isErr := u.callTool(dir, "stack_create", map[string]any{"name": "app", "start": false})
	if p := u.profiles()["default"]; p["server_binary"] != nil {
		t.Fatalf("stack_create wrote the repo's server_binary into the default profile: %v", p)
	}
	if !isErr || res["error"] != "config_unparseable" || !strings.Contains(res["message"].(string), filepath.Join(dir, "loams.toml")+":3") {
		t.Fatalf("stack_create: %v", res)
	}
}

// A loams.toml loams must not read: in a shared directory above the
// project (the search stops at the project root), or in the project but
// owned by another uid or writable by others (ignored, with one warning
// naming the file and the fix). Neither face uses the production profile
// it names. The other uid is 65534 (nobody): files owned by another uid
// are all the case needs; without root the chown is skipped.
func TestForeignManifestChoosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary")
	}
	u := newRepoUser(t)
	u.withRemoteProfile(remoteKey)
	if r := u.run(u.repo("mine", ""), "stack", "create", "mine", "--no-start"); r.code != 0 {
		t.Fatalf("stack create: %s", r.stderr)
	}
	shared := filepath.Join(t.TempDir(), "shared")
	proj := filepath.Join(shared, "proj")
	os.MkdirAll(proj, 0o777)
	os.WriteFile(filepath.Join(proj, "package.json"), []byte("{}\n"), 0o644)
	planted := filepath.Join(shared, "loams.toml")
	os.WriteFile(planted, []byte("[dev]\nprofile = \"prod\"\n"), 0o644)
	inProject := filepath.Join(proj, "loams.toml")

	check := func(what, warnFix string) {
		t.Helper()
		r := u.run(proj, "env", "export", "--format", "dotenv")
		if r.code != 0 || strings.Contains(r.stdout, remoteKey) || !strings.Contains(r.stdout, "LOAMS_STACK=mine") {
			t.Fatalf("%s: exit %d, the production profile was used or nothing was exported:\n%s%s", what, r.code, r.stdout, r.stderr)
		}
		if warnFix != "" && (strings.Count(r.stderr, "ignoring "+inProject) != 1 || !strings.Contains(r.stderr, warnFix)) {
			t.Fatalf("%s: want one warning naming %s and %q:\n%s", what, inProject, warnFix, r.stderr)
		}
		res, isErr := u.callTool(proj, "env_export", map[string]any{"path": ".env.loams", "force": true})
		b, _ := os.ReadFile(filepath.Join(proj, ".env.loams"))
		if strings.Contains(string(b), remoteKey) || isErr && res["error"] == "confirmation_required" {
			t.Fatalf("%s: env_export {} went by the foreign loams.toml: %v\n%s", what, res, b)
		}
	}
	check("planted above the project", "")

	os.WriteFile(inProject, []byte("[dev]\nprofile = \"prod\"\n"), 0o644)
	os.Chmod(inProject, 0o666)
	check("writable by others", "chmod go-w "+inProject)

	os.Chmod(inProject, 0o644)
	if os.Geteuid() != 0 {
		t.Skip("another uid's loams.toml: not root, cannot chown a file to a second uid")
	}
	if err := os.Chown(inProject, 65534, 65534); err != nil {
		t.Skipf("cannot chown to uid 65534: %v", err)
	}
	check("owned by another uid", "chown ")
}

// The loams.toml a repository may hold to make loams hang, misplace the
// binding or read a file of the user's: each is a coded error from both
// faces, or an edit in the right place.
func TestHostileManifestThroughBothFaces(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the built binary")
	}
	u := newRepoUser(t)
	outside := filepath.Join(u.home, ".ssh-config")
	os.WriteFile(outside, []byte("[dev]\nstack = \"x\"\n"), 0o600)
	for name, c := range map[string]struct {
		manifest string
		code     int
		errCode  string
	}{
		// The 40 KB nested file: 20-115 s in the decoder before.
		"nested": {"[dev]\nx = " + strings.Repeat("{a=", 6500) + "1" + strings.Repeat("}", 6500) + "\n", 5, "config_unparseable"},
		"large":  {"[dev]\n" + strings.Repeat("# pad\n", 50000), 5, "config_unparseable"},
		"link":   {"", 8, "path_outside_project"},
		// Neither blocks on open nor is internal.
		"fifo": {"", 5, "config_unreadable"},
		"dir":  {"", 5, "config_unreadable"},
	} {
		dir := u.repo(name, c.manifest)
		switch name {
		case "link":
			os.Symlink(outside, filepath.Join(dir, "loams.toml"))
		case "fifo":
			if err := mkfifo(filepath.Join(dir, "loams.toml")); err != nil {
				t.Logf("no FIFO here (%v): a directory stands in", err)
				os.Mkdir(filepath.Join(dir, "loams.toml"), 0o755)
			}
		case "dir":
			os.Mkdir(filepath.Join(dir, "loams.toml"), 0o755)
		}
		r := u.run(dir, "-o", "json", "stack", "describe")
		if r.code != c.code || !strings.Contains(r.stderr, `"`+c.errCode+`"`) || !strings.Contains(r.stderr, filepath.Join(dir, "loams.toml")) {
			t.Errorf("%s: stack describe: exit %d\n%s", name, r.code, r.stderr)
		}
		if res, isErr := u.callTool(dir, "env_export", map[string]any{}); !isErr || res["error"] != c.errCode {
			t.Errorf("%s: env_export: %v", name, res)
		}
	}

	// A [dev] line inside the user's multi-line string is their text: both
	// faces bind in a real [dev] table.
	const doc = "[functions]\nnote = \"\"\"\n[dev]\n\"\"\"\n"
	for face, dir := range map[string]string{"cli": u.repo("strcli", doc), "mcp": u.repo("strmcp", doc)} {
		if face == "cli" {
			if r := u.run(dir, "stack", "create", "strcli", "--no-start"); r.code != 0 {
				t.Fatalf("stack create: %s", r.stderr)
			}
		} else if res, isErr := u.callTool(dir, "stack_create", map[string]any{"name": "strmcp", "start": false}); isErr {
			t.Fatalf("stack_create: %v", res)
		}
		var got struct {
			Dev       map[string]any
			Functions map[string]any
		}
		if _, err := toml.DecodeFile(filepath.Join(dir, "loams.toml"), &got); err != nil || got.Dev["stack"] != "str"+face || got.Functions["note"] != "[dev]\n" {
			b, _ := os.ReadFile(filepath.Join(dir, "loams.toml"))
			t.Fatalf("%s: %v %+v\n%s", face, err, got, b)
		}
	}
}
