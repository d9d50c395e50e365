package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Issue 16 item 11: `loams pkg add` run in packages/web of a pnpm workspace
// uses pnpm (the lockfile is at the workspace root), not npm.
func TestPkgAddInAWorkspaceMember(t *testing.T) {
	t.Parallel()
	repo, _ := filepath.EvalSymlinks(t.TempDir())
	web := filepath.Join(repo, "packages", "web")
	os.MkdirAll(filepath.Join(web, "src"), 0o755)
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	for p, body := range map[string]string{"package.json": `{"private":true}`, "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
		"pnpm-lock.yaml": "lockfileVersion: '9.0'\n", "packages/web/package.json": `{"name":"web"}`} {
		os.WriteFile(filepath.Join(repo, p), []byte(body), 0o644)
	}
	env := cliEnv(t, "HOME="+t.TempDir())
	out, errOut, code := loamsIn(t, env, filepath.Join(web, "src"), "pkg", "add", "sdk", "--dry-run", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		PackageManager string   `json:"package_manager"`
		Command        []string `json:"command"`
		ProjectDir     string   `json:"project_dir"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if res.PackageManager != "pnpm" || res.Command[0] != "pnpm" || res.ProjectDir != web {
		t.Errorf("got %+v, want pnpm run in %s", res, web)
	}
}
