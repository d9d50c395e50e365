package pkgadd

import (
	"context"
	"loams.dev/cli/internal/testkit/testbin"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
)

// fakeBin writes shell scripts named after package managers that record
// their argv and working directory in $dir/<name>.argv, then run body.
func fakeBin(t *testing.T, body string, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		script := "#!/bin/sh\nPATH=/usr/bin:/bin\nprintf '%s\\n' \"$PWD\" \"$@\" > \"" + filepath.Join(dir, n+".argv") + "\"\n" + body + "\n"
		if err := testbin.WriteExecutable(filepath.Join(dir, n), []byte(script)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func project(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		content := ""
		if f == "pyproject.toml" {
			content = "[project]\nname = \"app\"\n"
		}
		if strings.HasPrefix(f, "pyproject.toml:") {
			f, content = "pyproject.toml", strings.TrimPrefix(f, "pyproject.toml:")
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func env(path string) func(string) string {
	return func(k string) string {
		if k == "PATH" {
			return path
		}
		return ""
	}
}

func TestDryRunPinsToTheMinorVersion(t *testing.T) {
	t.Parallel()
	cases := []struct {
		files    []string
		version  string
		dev      bool
		packages []string
		want     []string
	}{
		{[]string{"package.json"}, "0.1.3", false, []string{"sdk"}, []string{"npm", "install", "@loams/client@~0.1.0"}},
		{[]string{"package.json", "package-lock.json"}, "0.1.0", true, []string{"sdk"}, []string{"npm", "install", "--save-dev", "@loams/client@~0.1.0"}},
		{[]string{"package.json", "pnpm-lock.yaml"}, "0.1.0", false, []string{"sdk", "live"}, []string{"pnpm", "add", "@loams/client@~0.1.0", "@loams/live@~0.1.0"}},
		{[]string{"package.json", "pnpm-lock.yaml"}, "0.1.0", true, []string{"sdk"}, []string{"pnpm", "add", "-D", "@loams/client@~0.1.0"}},
		{[]string{"package.json", "yarn.lock"}, "0.2.0", true, []string{"@loams/bullmq"}, []string{"yarn", "add", "-D", "@loams/bullmq@~0.2.0"}},
		{[]string{"package.json", "bun.lockb"}, "1.4.2", true, []string{"sdk"}, []string{"bun", "add", "-d", "@loams/client@~1.4.0"}},
		{[]string{"pyproject.toml", "uv.lock"}, "0.1.0", false, []string{"sdk"}, []string{"uv", "add", "loams>=0.1,<0.2"}},
		{[]string{"pyproject.toml:[project]\nname='a'\n[tool.uv]\ndev-dependencies=[]\n"}, "0.1.0", true, []string{"celery"}, []string{"uv", "add", "--dev", "loams-celery>=0.1,<0.2"}},
		{[]string{"pyproject.toml", "poetry.lock"}, "0.3.1", true, []string{"sdk"}, []string{"poetry", "add", "--group", "dev", "loams>=0.3,<0.4"}},
		{[]string{"Cargo.toml"}, "0.1.0", false, []string{"sdk"}, []string{"cargo", "add", "loams@0.1"}},
		{[]string{"Cargo.toml"}, "0.1.0", true, []string{"loams"}, []string{"cargo", "add", "--dev", "loams@0.1"}},
		{[]string{"go.mod"}, "0.1.7", false, []string{"sdk"}, []string{"go", "get", "loams.dev/go@v0.1"}},
		{[]string{"go.mod"}, "dev", false, []string{"sdk"}, []string{"go", "get", "loams.dev/go"}},
		{[]string{"package.json"}, "dev", false, []string{"sdk"}, []string{"npm", "install", "@loams/client"}},
	}
	for _, c := range cases {
		dir := project(t, c.files...)
		res, err := Add(context.Background(), Request{Packages: c.packages, Dev: c.dev, DryRun: true,
			ProjectDir: dir, Version: c.version, Getenv: env("")})
		if err != nil {
			t.Errorf("%v %v: %v", c.files, c.packages, err)
			continue
		}
		if !reflect.DeepEqual(res.Command, c.want) {
			t.Errorf("%v %v %s: got %q, want %q", c.files, c.packages, c.version, res.Command, c.want)
		}
		if res.Installed || !res.DryRun || res.ExitCode != nil { // a dry run installs nothing, whatever is on PATH
			t.Errorf("%v: installed=%v dry_run=%v exit=%v, want false true nil", c.files, res.Installed, res.DryRun, res.ExitCode)
		}
		if res.Pinned == (c.version == "dev") {
			t.Errorf("%v %s: pinned=%v", c.files, c.version, res.Pinned)
		}
		if c.version == "dev" && len(res.Notes) == 0 {
			t.Errorf("dev build must say it pins nothing")
		}
		if c.dev && res.PackageManager == "go" && len(res.Notes) == 0 {
			t.Errorf("go --dev must say go has no dev dependencies")
		}
	}
}

func TestGoDevSaysSo(t *testing.T) {
	t.Parallel()
	res, err := Add(context.Background(), Request{Packages: []string{"sdk"}, Dev: true, DryRun: true,
		ProjectDir: project(t, "go.mod"), Version: "0.1.0", Getenv: env("")})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Command, []string{"go", "get", "loams.dev/go@v0.1"}) || !strings.Contains(strings.Join(res.Notes, " "), "no dev dependencies") {
		t.Fatalf("got %q notes %q", res.Command, res.Notes)
	}
}

func TestDetectionErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		files    []string
		language string
		pkgs     []string
		want     errs.Code
	}{
		{"nothing", nil, "", []string{"sdk"}, errs.EcosystemUnsupported},
		{"several", []string{"package.json", "go.mod"}, "", []string{"sdk"}, errs.SelectionRequired},
		{"unknown language", []string{"go.mod"}, "cobol", []string{"sdk"}, errs.Usage},
		{"live has no go package", []string{"go.mod"}, "", []string{"live"}, errs.EcosystemUnsupported},
		{"not allowed", []string{"package.json"}, "", []string{"left-pad"}, errs.PackageNotAllowed},
		{"no package", []string{"package.json"}, "", nil, errs.Usage},
		{"javascript has no celery", []string{"package.json"}, "javascript", []string{"celery"}, errs.EcosystemUnsupported},
	}
	for _, c := range cases {
		_, err := Add(context.Background(), Request{Packages: c.pkgs, Language: c.language, DryRun: true,
			ProjectDir: project(t, c.files...), Version: "0.1.0", Getenv: env("")})
		if !errs.Is(err, c.want) {
			t.Errorf("%s: got %v, want %s", c.name, err, c.want)
		}
		if e := errs.As(err); e.Hint == "" {
			t.Errorf("%s: no hint", c.name)
		}
	}
}

func TestPackageChoosesAmongEcosystems(t *testing.T) {
	t.Parallel()
	dir := project(t, "package.json", "pyproject.toml", "uv.lock")
	// celery exists only on PyPI, so the python half of the project is meant.
	res, err := Add(context.Background(), Request{Packages: []string{"celery"}, DryRun: true, ProjectDir: dir, Version: "0.1.0", Getenv: env("")})
	if err != nil {
		t.Fatal(err)
	}
	if res.PackageManager != "uv" {
		t.Fatalf("got %s", res.PackageManager)
	}
	res, err = Add(context.Background(), Request{Packages: []string{"sdk"}, Language: "typescript", DryRun: true, ProjectDir: dir, Version: "0.1.0", Getenv: env("")})
	if err != nil || res.PackageManager != "npm" {
		t.Fatalf("--language typescript: %v %v", res, err)
	}
	var offered []string
	res, err = Add(context.Background(), Request{Packages: []string{"sdk"}, DryRun: true, ProjectDir: dir, Version: "0.1.0", Getenv: env(""),
		Choose: func(c []Found) (Found, error) {
			for _, f := range c {
				offered = append(offered, f.Language)
			}
			return c[1], nil
		}})
	if err != nil || res.PackageManager != "uv" || !reflect.DeepEqual(offered, []string{"typescript", "python"}) {
		t.Fatalf("prompt: %v %v %v", res, err, offered)
	}
}

func TestUnknownPassesThroughOnlyWhenAllowed(t *testing.T) {
	t.Parallel()
	dir := project(t, "package.json")
	p, err := Prepare(Request{Packages: []string{"sdk", "left-pad"}, ProjectDir: dir, Version: "0.1.0", AllowUnknown: true, Getenv: env("")})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Argv, []string{"npm", "install", "@loams/client@~0.1.0", "left-pad"}) || !reflect.DeepEqual(p.Unknown, []string{"left-pad"}) {
		t.Fatalf("got %q unknown %q", p.Argv, p.Unknown)
	}
}

func TestRunsTheManagerInTheProject(t *testing.T) {
	t.Parallel()
	bin := fakeBin(t, `echo "added 1 package"; echo '{"dependencies":{"@loams/client":"~0.1.0"}}' > package.json`, "npm")
	dir := project(t, "package.json")
	res, err := Add(context.Background(), Request{Packages: []string{"sdk"}, ProjectDir: dir, Version: "0.1.0", Getenv: env(bin)})
	if err != nil {
		t.Fatal(err)
	}
	argv, _ := os.ReadFile(filepath.Join(bin, "npm.argv"))
	if want := dir + "\ninstall\n@loams/client@~0.1.0\n"; string(argv) != want {
		t.Fatalf("npm saw %q, want %q", argv, want)
	}
	if *res.ExitCode != 0 || !res.Installed || !res.ManifestChanged || res.Manifest != "package.json" || res.OutputTail != "added 1 package\n" {
		t.Fatalf("result %+v", res)
	}
}

func TestFailureIsAResultWithTheTail(t *testing.T) {
	t.Parallel()
	bin := fakeBin(t, `i=0; while [ $i -lt 600 ]; do echo "line $i of noise"; i=$((i+1)); done; echo "error: failed to compile" >&2; exit 3`, "cargo")
	res, err := Add(context.Background(), Request{Packages: []string{"sdk"}, ProjectDir: project(t, "Cargo.toml"), Version: "0.1.0", Getenv: env(bin)})
	if err != nil {
		t.Fatal(err)
	}
	if *res.ExitCode != 3 || len(res.OutputTail) > tailSize || !strings.HasSuffix(res.OutputTail, "failed to compile\n") || !strings.HasPrefix(res.OutputTail, "line ") {
		t.Fatalf("exit %d tail %d bytes %q…", *res.ExitCode, len(res.OutputTail), res.OutputTail[:40])
	}
	if res.ManifestChanged {
		t.Fatal("manifest reported changed")
	}
}

func TestMissingManager(t *testing.T) {
	t.Parallel()
	_, err := Add(context.Background(), Request{Packages: []string{"sdk"}, ProjectDir: project(t, "pyproject.toml", "uv.lock"), Version: "0.1.0", Getenv: env(t.TempDir())})
	if !errs.Is(err, errs.EcosystemUnsupported) || !strings.Contains(errs.As(err).Hint, "uv") {
		t.Fatalf("got %v", err)
	}
}

func TestTimeoutKillsTheManager(t *testing.T) {
	t.Parallel()
	bin := fakeBin(t, `echo waiting; sleep 60 & wait`, "go")
	_, err := Add(context.Background(), Request{Packages: []string{"sdk"}, ProjectDir: project(t, "go.mod"), Version: "0.1.0",
		Getenv: env(bin), Timeout: 300 * time.Millisecond})
	if !errs.Is(err, errs.Timeout) || errs.As(err).Details["output_tail"] != "waiting\n" {
		t.Fatalf("got %v %v", err, errs.As(err).Details)
	}
}

func TestMinorOf(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"0.1.0": true, "v1.2.3": true, "0.2.0-rc.1": true, "dev": false, "": false, "0.0.0-20261202101500-abcdef123456": false, "0.1.1-0.20261202101500-abcdef123456": false, "1": false} {
		if _, _, ok := minorOf(v); ok != want {
			t.Errorf("%q: %v", v, ok)
		}
	}
}
