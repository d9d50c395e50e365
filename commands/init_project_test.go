package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 16 item 11: init finds the project by the same rule as env export,
// mcp install and pkg add. A folder with only .cursor/ is a project; a bare
// folder is not, and init then writes no .env.loams there (it used to take
// the current directory while the other commands refused it).
func TestInitUsesTheOneProjectRule(t *testing.T) {
	t.Parallel()
	env := cliEnv(t, "HOME="+t.TempDir())
	bare, _ := filepath.EvalSymlinks(t.TempDir())
	_, errOut, code := loamsIn(t, env, bare, "init", "--yes", "--no-agent", "--port-base", portBase(t))
	if code != 0 {
		t.Fatalf("init in a bare folder: exit %d: %s", code, errOut)
	}
	defer loams(t, env, "stack", "stop", "--name", "dev", "--grace", "2s")
	if _, err := os.Stat(filepath.Join(bare, ".env.loams")); err == nil {
		t.Error("init wrote .env.loams into a folder no other command takes for a project")
	}
	if !strings.Contains(errOut, "not in a project") || !strings.Contains(errOut, "--project-dir") {
		t.Errorf("init did not say why .env.loams was skipped: %s", errOut)
	}

	cursor, _ := filepath.EvalSymlinks(t.TempDir())
	os.Mkdir(filepath.Join(cursor, ".cursor"), 0o755)
	sub := filepath.Join(cursor, "src")
	os.Mkdir(sub, 0o755)
	if _, errOut, code := loamsIn(t, env, sub, "init", "--yes", "--no-agent"); code != 0 {
		t.Fatalf("init in a .cursor project: exit %d: %s", code, errOut)
	}
	if fi, err := os.Stat(filepath.Join(cursor, ".env.loams")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf(".env.loams not at the project root: %v", err)
	}
}

// The same rule for `mcp install --scope project`: run from src/ of a folder
// that has only .cursor/, it targets that folder's .cursor/mcp.json; from a
// bare folder it refuses instead of guessing.
func TestMcpInstallProjectScopeUsesTheOneProjectRule(t *testing.T) {
	t.Parallel()
	env := cliEnv(t, "HOME="+t.TempDir())
	proj, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(proj, ".cursor"), 0o755)
	os.Mkdir(filepath.Join(proj, "src"), 0o755)
	out, errOut, code := loamsIn(t, env, filepath.Join(proj, "src"), "mcp", "install", "--agent", "cursor", "--scope", "project", "--dry-run", "-o", "json")
	if code != 0 || !strings.Contains(out, `"path": "`+filepath.Join(proj, ".cursor", "mcp.json")+`"`) {
		t.Errorf("exit %d, stdout %s, stderr %s", code, out, errOut)
	}
	bare, _ := filepath.EvalSymlinks(t.TempDir())
	if _, _, code := loamsIn(t, env, bare, "mcp", "install", "--agent", "cursor", "--scope", "project", "--dry-run", "-o", "json"); code == 0 {
		t.Error("a bare folder was taken for a project")
	}
}
