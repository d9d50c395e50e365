package pkgadd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// workspace lays out repo/{.git, root files} and repo/packages/web/package.json
// and returns packages/web.
func workspace(t *testing.T, outer []string, rootFiles ...string) string {
	t.Helper()
	base := t.TempDir()
	for _, f := range outer {
		os.WriteFile(filepath.Join(base, f), nil, 0o644)
	}
	repo := filepath.Join(base, "repo")
	web := filepath.Join(repo, "packages", "web")
	if err := os.MkdirAll(web, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	for _, f := range append([]string{"package.json"}, rootFiles...) {
		os.WriteFile(filepath.Join(repo, f), []byte("{}"), 0o644)
	}
	os.WriteFile(filepath.Join(web, "package.json"), []byte(`{"name":"web"}`), 0o644)
	return web
}

// Issue 16 item 11: `pkg add` in packages/web of a pnpm/yarn/bun/npm
// workspace uses the workspace's manager, found by its lockfile up to the
// repository root, and runs in packages/web (so the member's package.json
// changes). A lockfile above the repository root is not the project's.
func TestWorkspaceMemberUsesTheWorkspaceManager(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		outer []string
		root  []string
		want  string
	}{
		{"pnpm lockfile", nil, []string{"pnpm-lock.yaml"}, "pnpm"},
		{"pnpm workspace file, no lock yet", nil, []string{"pnpm-workspace.yaml"}, "pnpm"},
		{"yarn", nil, []string{"yarn.lock"}, "yarn"},
		{"bun", nil, []string{"bun.lock"}, "bun"},
		{"bun binary lock", nil, []string{"bun.lockb"}, "bun"},
		{"npm", nil, []string{"package-lock.json"}, "npm"},
		{"no lockfile anywhere", nil, nil, "npm"},
		{"lockfile beyond the repository root", []string{"yarn.lock"}, nil, "npm"},
	}
	for _, c := range cases {
		web := workspace(t, c.outer, c.root...)
		res, err := Add(context.Background(), Request{Packages: []string{"sdk"}, DryRun: true, ProjectDir: web, Version: "0.1.0", Getenv: env("")})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.PackageManager != c.want || res.Command[0] != c.want || res.ProjectDir != web {
			t.Errorf("%s: manager %s, command %v in %s; want %s in %s", c.name, res.PackageManager, res.Command, res.ProjectDir, c.want, web)
		}
	}
	// The member's own lockfile wins over the workspace's.
	web := workspace(t, nil, "pnpm-lock.yaml")
	os.WriteFile(filepath.Join(web, "yarn.lock"), nil, 0o644)
	if found, _ := Detect(web, ""); len(found) != 1 || found[0].Name != "yarn" {
		t.Errorf("own lockfile: %+v", found)
	}
	// The marker says where the decision came from.
	web = workspace(t, nil, "pnpm-lock.yaml")
	if found, _ := Detect(web, ""); len(found) != 1 || !strings.HasSuffix(found[0].Marker, "../../pnpm-lock.yaml") {
		t.Errorf("marker: %+v", found)
	}
}

// A uv workspace member (pyproject.toml only) uses uv from the root's uv.lock,
// a Poetry one poetry.
func TestPythonWorkspaceMember(t *testing.T) {
	t.Parallel()
	for lock, want := range map[string]string{"uv.lock": "uv", "poetry.lock": "poetry"} {
		repo := t.TempDir()
		member := filepath.Join(repo, "libs", "api")
		os.MkdirAll(member, 0o755)
		os.Mkdir(filepath.Join(repo, ".git"), 0o755)
		os.WriteFile(filepath.Join(repo, lock), nil, 0o644)
		os.WriteFile(filepath.Join(member, "pyproject.toml"), []byte("[project]\nname = \"api\"\n"), 0o644)
		found, _ := Detect(member, "")
		if len(found) != 1 || found[0].Name != want {
			t.Errorf("%s: %+v, want %s", lock, found, want)
		}
	}
}
