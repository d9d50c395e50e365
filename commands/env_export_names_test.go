package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The key never goes to a file a shell sources or git owns, by one rule
// that compares names as macOS and Windows do (case folded, .git with
// trailing dots or as GIT~1) and refuses a name ending in a login file's
// name. Each is refused with forbidden (exit 8) and nothing is written;
// .env.local, the control, takes it.
func TestEnvExportRefusesShellAndGitNamesInAnyCase(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed:", err)
	}
	env := cliEnv(t, "HOME="+t.TempDir())
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--no-start"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	for _, name := range []string{".env.zshenv", ".env.profile", ".env.bash_profile", ".env.login", ".env.SH", ".ENVRC", ".env.ZSHRC",
		".GIT/.env", ".Git./.env", "GIT~1/.env", ".env.local"} {
		t.Run(name, func(t *testing.T) {
			base, _ := filepath.EvalSymlinks(t.TempDir())
			proj := filepath.Join(base, "proj")
			gitIn(t, base, "init", "-q", proj)
			os.MkdirAll(filepath.Join(proj, filepath.Dir(name)), 0o755)
			_, errOut, code := loamsIn(t, env, proj, "env", "export", "--stack", "dev", "--write", name, "-o", "json")
			_, written := os.Stat(filepath.Join(proj, name))
			if name == ".env.local" {
				if code != 0 || written != nil {
					t.Errorf("control: exit %d, written: %v: %s", code, written == nil, errOut)
				}
				return
			}
			if code != 8 || !strings.Contains(errOut, `"forbidden"`) || written == nil {
				t.Errorf("exit %d, written: %v; want forbidden (8) and no file: %s", code, written == nil, errOut)
			}
		})
	}
}

// The env_target_mismatch guard finds loams's header anywhere in the
// file's opening comments: a BOM before it, or a comment someone put
// above it, must not let the file be re-pointed at another stack.
func TestEnvTargetGuardReadsTheWholeHeaderBlock(t *testing.T) {
	t.Parallel()
	env := cliEnv(t, "HOME="+t.TempDir())
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--no-start"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	header := "# Written by loams 0.1.0 for stack \"nodeapp\" at 2026-12-01T00:00:00Z\nLOAMS_URL=http://127.0.0.1:1\n"
	for name, body := range map[string]string{
		"header first (control)": header,
		"BOM":                    "\ufeff" + header,
		"comment above":          "# my app's settings, see README\n\n" + header,
		"CRLF and comment above": strings.ReplaceAll("# notes\n"+header, "\n", "\r\n"),
	} {
		t.Run(name, func(t *testing.T) {
			proj, _ := filepath.EvalSymlinks(t.TempDir())
			os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"app"}`), 0o644)
			target := filepath.Join(proj, ".env.loams")
			os.WriteFile(target, []byte(body), 0o600)
			_, errOut, code := loamsIn(t, env, proj, "env", "export", "--stack", "dev", "--write", ".env.loams", "-o", "json")
			if now, _ := os.ReadFile(target); code == 0 || !strings.Contains(errOut, "env_target_mismatch") || string(now) != body {
				t.Errorf("exit %d, file kept: %v; want env_target_mismatch and the file untouched: %s", code, string(now) == body, errOut)
			}
		})
	}
}
