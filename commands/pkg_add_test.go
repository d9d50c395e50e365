package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"loams.dev/cli/internal/testkit/testbin"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/iostreams"
)

func pkgProject(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPkgAddDryRunPrintsThePinnedCommand(t *testing.T) {
	t.Parallel()
	cases := []struct {
		files []string
		want  string
	}{
		{[]string{"package.json", "package-lock.json"}, "npm install @loams/client@~0.1.0\n"},
		{[]string{"package.json", "pnpm-lock.yaml"}, "pnpm add @loams/client@~0.1.0\n"},
		{[]string{"pyproject.toml", "uv.lock"}, "uv add 'loams>=0.1,<0.2'\n"},
		{[]string{"Cargo.toml"}, "cargo add loams@0.1\n"},
		{[]string{"go.mod"}, "go get loams.dev/go@v0.1\n"},
	}
	for _, c := range cases {
		ios, _, out, errOut := iostreams.Test()
		f := &Factory{IO: ios, Dir: t.TempDir(), Getenv: func(k string) string { return map[string]string{"PATH": t.TempDir()}[k] }, Now: time.Now}
		err := runPkgAdd(context.Background(), f, &pkgAddOptions{packages: []string{"sdk"}, dryRun: true,
			projectDir: pkgProject(t, c.files...), version: "0.1.4"})
		if err != nil {
			t.Fatalf("%v: %v", c.files, err)
		}
		if out.String() != c.want {
			t.Errorf("%v: printed %q, want %q", c.files, out.String(), c.want)
		}
		if !strings.Contains(errOut.String(), "not installed") {
			t.Errorf("%v: stderr does not say the manager is missing: %q", c.files, errOut.String())
		}
	}
}

// A fake npm on PATH records its argv: the real run happens in the
// project, an unknown name goes through after a warning, json is one document.
func TestPkgAddRunsNpm(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	log := filepath.Join(bin, "argv")
	testbin.WriteExecutable(filepath.Join(bin, "npm"), []byte("#!/bin/sh\nprintf '%s\\n' \"$PWD\" \"$@\" > "+log+"\necho added 2 packages\n"))
	dir := pkgProject(t, "package.json")
	r := runLoams(t, map[string]string{"PATH": bin}, false, "-o", "json", "pkg", "add", "sdk", "left-pad", "--dev", "--project-dir", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	argv, _ := os.ReadFile(log)
	if got := string(argv); got != dir+"\ninstall\n--save-dev\n@loams/client\nleft-pad\n" {
		t.Fatalf("npm saw %q", got)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, r.stdout)
	}
	if w := fmt.Sprint(res["warnings"]); !strings.Contains(w, `"left-pad" is not a Loams package`) || r.stderr != "" {
		t.Errorf("the warning belongs in the document: warnings %s, stderr %q", w, r.stderr)
	}
	if res["exit_code"] != 0.0 || res["output_tail"] != "added 2 packages\n" || res["package_manager"] != "npm" || res["pinned"] != false {
		t.Errorf("result %v", res)
	}
}

func TestPkgAddFailingManager(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	testbin.WriteExecutable(filepath.Join(bin, "cargo"), []byte("#!/bin/sh\necho 'error: no such crate' >&2\nexit 101\n"))
	r := runLoams(t, map[string]string{"PATH": bin}, false, "-o", "json", "pkg", "add", "sdk", "--project-dir", pkgProject(t, "Cargo.toml"))
	if r.code != 7 || r.stdout != "" || !strings.Contains(r.stderr, "no such crate") || !strings.Contains(r.stderr, `"exit_code": 101`) {
		t.Fatalf("exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
	}
}

func TestPkgAddSeveralEcosystemsWithoutATerminal(t *testing.T) {
	t.Parallel()
	r := runLoams(t, nil, false, "pkg", "add", "sdk", "--dry-run", "--project-dir", pkgProject(t, "package.json", "go.mod"))
	if r.code != 3 || !strings.Contains(r.stderr, "--language") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
}
