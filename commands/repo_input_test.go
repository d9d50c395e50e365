package commands

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"loams.dev/cli/internal/testbin"
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
		"LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testserver"))
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
	t := u.t
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testbin.Loams(t), args...)
	cmd.Env, cmd.Dir = u.env, dir
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("loams %v hung", args)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return loamsResult{out.String(), errOut.String(), code, time.Since(start)}
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
}
