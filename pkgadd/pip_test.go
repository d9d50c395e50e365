package pkgadd

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

func TestPinRequirementsKeepsTheRest(t *testing.T) {
	t.Parallel()
	cases := []struct{ old, want string }{
		{"", "qdrant-client>=1.15,<2\n"},
		{"# app deps\nrequests==2.31\n", "# app deps\nrequests==2.31\nqdrant-client>=1.15,<2\n"},
		{"requests\nQdrant_Client==1.7  # vectors\nflask\n", "requests\nqdrant-client>=1.15,<2  # vectors\nflask\n"},
		{"-r base.txt\r\n--index-url https://x/simple\r\nqdrant-client[fastembed]>=1.0\r\n", "-r base.txt\r\n--index-url https://x/simple\r\nqdrant-client>=1.15,<2\r\n"},
		{"flask", "flask\nqdrant-client>=1.15,<2\n"},
		{"# qdrant-client==1.0 (commented out)\n", "# qdrant-client==1.0 (commented out)\nqdrant-client>=1.15,<2\n"},
	}
	for _, c := range cases {
		if got := pinRequirements(c.old, []string{"qdrant-client>=1.15,<2"}); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.old, got, c.want)
		}
	}
	if got := pinRequirements("psycopg==3.0\n", []string{"psycopg[binary]>=3.1,<4"}); got != "psycopg[binary]>=3.1,<4\n" {
		t.Errorf("extras: %q", got)
	}
}

// fakeVenv makes dir/name look like a virtual environment to the planner.
func fakeVenv(t *testing.T, dir, name string) string {
	t.Helper()
	py := venvPython(filepath.Join(dir, name))
	if err := os.MkdirAll(filepath.Dir(py), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(py, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name, "pyvenv.cfg"), []byte("home = /usr/bin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name)
}

func TestPipRouteIsChosen(t *testing.T) {
	t.Parallel()
	uvBin := fakeBin(t, "exit 0", "uv")
	pip := []string{".venv/bin/python", "-m", "pip", "install", "qdrant-client>=1.15,<2"}
	for _, c := range []struct {
		name  string
		files []string
		venv  string // a venv dir to make in the project
		lang  string
		path  string
		want  []string
		found bool
	}{
		{"requirements.txt alone", []string{"requirements.txt"}, "", "", "", pip, false},
		{"requirements.txt and .venv", []string{"requirements.txt"}, ".venv", "", "", pip, true},
		{"venv only", nil, "venv", "", "", []string{"venv/bin/python", "-m", "pip", "install", "qdrant-client>=1.15,<2"}, true},
		{"--language python, empty dir", nil, "", "python", uvBin, pip, false},
		{"pyproject without uv, with .venv", []string{"pyproject.toml"}, ".venv", "", "", pip, true},
		{"pyproject with uv on PATH", []string{"pyproject.toml"}, ".venv", "", uvBin, []string{"uv", "add", "qdrant-client>=1.15,<2"}, true},
		{"uv.lock without uv", []string{"pyproject.toml", "uv.lock", "requirements.txt"}, "", "", "", []string{"uv", "add", "qdrant-client>=1.15,<2"}, false},
	} {
		dir := project(t, c.files...)
		if c.venv != "" {
			fakeVenv(t, dir, c.venv)
		}
		res, err := Add(context.Background(), Request{Packages: []string{"qdrant"}, Language: c.lang, DryRun: true,
			ProjectDir: dir, Version: "0.1.0", Getenv: env(c.path)})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(res.Command, c.want) || res.PackageManagerFound != c.found || res.Installed {
			t.Errorf("%s: got %q found=%v installed=%v, want %q found=%v installed=false", c.name, res.Command, res.PackageManagerFound, res.Installed, c.want, c.found)
		}
	}
}

func TestPipUsesTheActivatedVenv(t *testing.T) {
	t.Parallel()
	dir := project(t, "requirements.txt")
	fakeVenv(t, dir, ".venv")
	active := fakeVenv(t, t.TempDir(), "env")
	getenv := func(k string) string {
		if k == "VIRTUAL_ENV" {
			return active
		}
		return ""
	}
	res, err := Add(context.Background(), Request{Packages: []string{"qdrant"}, DryRun: true, ProjectDir: dir, Version: "0.1.0", Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	if res.Command[0] != venvPython(active) {
		t.Fatalf("got %q, want the activated venv's python", res.Command)
	}
	// $VIRTUAL_ENV alone does not make an npm app a Python one.
	res, err = Add(context.Background(), Request{Packages: []string{"qdrant"}, DryRun: true, ProjectDir: project(t, "package.json"), Version: "0.1.0", Getenv: getenv})
	if err != nil || res.PackageManager != "npm" {
		t.Fatalf("npm app with VIRTUAL_ENV set: %v %v", res, err)
	}
}

func TestPipWithoutVenvInstallsNothing(t *testing.T) {
	t.Parallel()
	dir := project(t, "requirements.txt")
	os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte("flask\n"), 0o644)
	_, err := Add(context.Background(), Request{Packages: []string{"qdrant"}, ProjectDir: dir, Version: "0.1.0", Getenv: env(os.Getenv("PATH"))})
	e := errs.As(err)
	if !errs.Is(err, errs.EcosystemUnsupported) || !strings.Contains(e.Hint, "python3 -m venv .venv") || !strings.Contains(e.AgentHint, "add_package") {
		t.Fatalf("got %v (hint %q, agent %q)", err, e.Hint, e.AgentHint)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "requirements.txt")); string(b) != "flask\n" {
		t.Fatalf("requirements.txt changed: %q", b)
	}
}
