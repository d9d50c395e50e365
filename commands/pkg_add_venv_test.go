//go:build unix

package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// pkg add's pip route runs the project's .venv/bin/python. In a cloned
// repository that file is someone else's: a committed venv, a .venv that
// links out of the project (to /usr, say), a directory without pyvenv.cfg
// or one owned by another user is never run; loams says which it ignored
// and why. The control, a venv of this user, is run.
func TestPkgAddRunsOnlyTheUsersOwnVenv(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is needed:", err)
	}
	for _, tc := range []struct {
		name string
		make func(t *testing.T, proj, script string)
		why  string // "" = the control: the venv is used
	}{
		{"own venv (control)", func(t *testing.T, proj, script string) { venvAt(t, filepath.Join(proj, ".venv"), script, true) }, ""},
		{"committed venv", func(t *testing.T, proj, script string) {
			venvAt(t, filepath.Join(proj, ".venv"), script, true)
			gitIn(t, proj, "add", "-f", "--", ".venv")
		}, "git tracks files in it"},
		{"link out of the project", func(t *testing.T, proj, script string) {
			out := filepath.Join(t.TempDir(), "usr")
			venvAt(t, out, script, true)
			if err := os.Symlink(out, filepath.Join(proj, ".venv")); err != nil {
				t.Fatal(err)
			}
		}, "outside the project"},
		{"no pyvenv.cfg", func(t *testing.T, proj, script string) { venvAt(t, filepath.Join(proj, ".venv"), script, false) }, "no pyvenv.cfg"},
		{"another user's", func(t *testing.T, proj, script string) {
			venvAt(t, filepath.Join(proj, ".venv"), script, true)
			chown(t, filepath.Join(proj, ".venv"))
		}, "belongs to another user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proj, marker := t.TempDir(), filepath.Join(t.TempDir(), "ran")
			gitIn(t, proj, "init", "-q")
			if err := os.WriteFile(filepath.Join(proj, "requirements.txt"), []byte("flask\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.make(t, proj, "#!/bin/sh\ntouch '"+marker+"'\n")
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LOAMS_HOME=" + t.TempDir(), "LOAMS_NO_UPDATE_NOTIFIER=1",
				"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1"}
			_, errOut, code := loamsIn(t, env, proj, "pkg", "add", "qdrant", "-o", "json")
			_, ran := os.Stat(marker)
			if tc.why == "" {
				if ran != nil {
					t.Errorf("the user's own venv was not used: exit %d %s", code, errOut)
				}
				return
			}
			if ran == nil {
				t.Fatal("the venv's python was run")
			}
			if !strings.Contains(errOut, "ecosystem_unsupported") || !strings.Contains(errOut, tc.why) {
				t.Errorf("exit %d, want ecosystem_unsupported saying %q: %s", code, tc.why, errOut)
			}
		})
	}
}

// venvAt makes dir look like a virtual environment whose python is script.
func venvAt(t *testing.T, dir, script string, cfg bool) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testbin.WriteExecutable(filepath.Join(dir, "bin", "python"), []byte(script)); err != nil {
		t.Fatal(err)
	}
	if cfg {
		if err := os.WriteFile(filepath.Join(dir, "pyvenv.cfg"), []byte("home = /usr/bin\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
