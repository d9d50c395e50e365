package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/iostreams"
)

// configure reads and writes the profile every other verb uses: in a
// project whose loams.toml names a profile, that one (project.md), unless
// --profile says otherwise.
func TestConfigureFollowsTheProjectsProfile(t *testing.T) {
	t.Parallel()
	proj, home := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(proj, "package.json"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "loams.toml"), []byte("[dev]\nprofile = \"staging\"\n"), 0o644)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[profile.staging]\noutput = \"table\"\n"), 0o600)
	env := map[string]string{"LOAMS_HOME": home}
	run := func(argv ...string) string {
		t.Helper()
		ios, _, out, errOut := iostreams.Test()
		f := &Factory{IO: ios, Dir: proj, Getenv: func(k string) string { return env[k] }, Now: time.Now}
		if code := Run(context.Background(), f, append([]string{"loams"}, argv...), nil); code != 0 {
			t.Fatalf("%v: exit %d %s", argv, code, errOut)
		}
		return out.String()
	}
	run("configure", "set", "default_stack", "nodeapp")
	cfg, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	if !strings.Contains(string(cfg), "[profile.staging]\noutput = \"table\"\ndefault_stack = \"nodeapp\"") {
		t.Fatalf("set did not write the project's profile:\n%s", cfg)
	}
	if got := run("-o", "text", "configure", "get", "default_stack"); !strings.Contains(got, "nodeapp") {
		t.Fatalf("get read another profile: %q", got)
	}
	run("--profile", "default", "configure", "set", "default_stack", "other")
	if got := run("-o", "text", "configure", "get", "default_stack"); !strings.Contains(got, "nodeapp") {
		t.Fatalf("--profile default changed the project's profile: %q", got)
	}
}
