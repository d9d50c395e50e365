package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/workspace/workspacetest"
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

// A typo in [dev] is said once, where the output format puts warnings:
// inside the document in json mode (stderr stays empty), on stderr in
// table mode.
func TestUnknownDevKeyWarnsWhereTheFormatSays(t *testing.T) {
	t.Parallel()
	proj, loamsHome := t.TempDir(), t.TempDir()
	workspacetest.FakeStack(t, home.Home{Dir: loamsHome}, "app")
	os.WriteFile(filepath.Join(proj, "package.json"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "loams.toml"), []byte("[dev]\nstack = \"app\"\nstak = \"x\"\n"), 0o644)
	env := map[string]string{"LOAMS_HOME": loamsHome}
	run := func(argv ...string) (string, string) {
		ios, _, out, errOut := iostreams.Test()
		f := &Factory{IO: ios, Dir: proj, Getenv: func(k string) string { return env[k] }, Now: time.Now}
		if code := Run(context.Background(), f, append([]string{"loams"}, argv...), nil); code != 0 {
			t.Fatalf("%v: exit %d %s", argv, code, errOut)
		}
		return out.String(), errOut.String()
	}
	out, errOut := run("-o", "json", "stack", "describe")
	var doc struct{ Warnings []string }
	if json.Unmarshal([]byte(out), &doc) != nil || len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0], "stak") || errOut != "" {
		t.Fatalf("json mode: stdout %s\nstderr %q", out, errOut)
	}
	if _, errOut := run("stack", "describe"); strings.Count(errOut, "warning: ") != 1 || !strings.Contains(errOut, "stak") {
		t.Fatalf("table mode stderr: %q", errOut)
	}
}
