package commands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// loamsIn runs the built binary in dir.
func listFiles(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.IsDir() && fi.Name() == ".git" {
			return filepath.SkipDir
		}
		c, _ := os.ReadFile(p)
		b.WriteString(p + " " + fi.Mode().String() + " " + string(c) + "\n")
		return nil
	})
	return b.String()
}

// Issue 11 items 14-18 at the CLI: `loams env export --merge/--write`
// refuses committed, executed and read-only files and a .gitignore it may
// not write, and then writes nothing at all.
func TestEnvExportRefusalsWriteNothing(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the tracked-file rule needs it")
	}
	env := cliEnv(t, "HOME="+t.TempDir())
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--port-base", portBase(t), "--no-start"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, proj string)
		args  []string
		exit  int
		code  string
	}{
		{"committed .env.example", func(t *testing.T, proj string) { commit(t, proj, ".env.example", "API_KEY=\n") },
			[]string{"--merge", ".env.example"}, 5, "file_tracked"},
		{".envrc", func(t *testing.T, proj string) {
			os.WriteFile(filepath.Join(proj, ".envrc"), []byte("use node\n"), 0o644)
		},
			[]string{"--merge", ".envrc"}, 8, "forbidden"},
		{"0444 .env", func(t *testing.T, proj string) { os.WriteFile(filepath.Join(proj, ".env"), []byte("A=1\n"), 0o444) },
			[]string{"--write", ".env.loams", "--merge", ".env"}, 8, "forbidden"},
		{"0400 .env.loams", func(t *testing.T, proj string) {
			os.WriteFile(filepath.Join(proj, ".env.loams"), []byte("A=1\n"), 0o400)
		},
			[]string{"--write", ".env.loams"}, 8, "forbidden"},
		{".gitignore links outside", func(t *testing.T, proj string) {
			os.WriteFile(filepath.Join(filepath.Dir(proj), "outside"), []byte("*.log\n"), 0o644)
			os.Symlink(filepath.Join(filepath.Dir(proj), "outside"), filepath.Join(proj, ".gitignore"))
		}, []string{"--write", ".env.loams"}, 8, "path_outside_project"},
		{".gitignore is a directory", func(t *testing.T, proj string) { os.Mkdir(filepath.Join(proj, ".gitignore"), 0o755) },
			[]string{"--write", ".env.loams"}, 8, "forbidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, _ := filepath.EvalSymlinks(t.TempDir())
			proj := filepath.Join(base, "proj")
			gitIn(t, base, "init", "-q", proj)
			tt.setup(t, proj)
			before := listFiles(t, base)
			out, errOut, code := loamsIn(t, env, proj, append([]string{"env", "export", "-o", "json", "--stack", "dev"}, tt.args...)...)
			if code != tt.exit || !strings.Contains(errOut, `"code": "`+tt.code+`"`) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %s; want exit %d %s", code, out, errOut, tt.exit, tt.code)
			}
			if after := listFiles(t, base); after != before {
				t.Errorf("files changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// Issue 16 item 11: a folder with only .cursor/ (or only requirements.txt)
// is a project for env export --write, as it is for init and mcp install.
func TestEnvExportFindsProjectsByEveryMarker(t *testing.T) {
	t.Parallel()
	env := cliEnv(t, "HOME="+t.TempDir())
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--port-base", portBase(t), "--no-start"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	for _, marker := range []string{".cursor/", "requirements.txt"} {
		proj, _ := filepath.EvalSymlinks(t.TempDir())
		if strings.HasSuffix(marker, "/") {
			os.Mkdir(filepath.Join(proj, marker), 0o755)
		} else {
			os.WriteFile(filepath.Join(proj, marker), []byte("flask\n"), 0o644)
		}
		sub := filepath.Join(proj, "src")
		os.Mkdir(sub, 0o755)
		if _, errOut, code := loamsIn(t, env, sub, "env", "export", "--stack", "dev", "--write", ".env.loams"); code != 0 {
			t.Errorf("%s: exit %d: %s", marker, code, errOut)
		}
		if fi, err := os.Stat(filepath.Join(proj, ".env.loams")); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: .env.loams not written at the project root: %v", marker, err)
		}
	}
	// No marker up to / (HOME is elsewhere): a clear error, nothing written.
	bare, _ := filepath.EvalSymlinks(t.TempDir())
	if _, errOut, code := loamsIn(t, env, bare, "env", "export", "--write", ".env.loams"); code != 2 || !strings.Contains(errOut, "--project-dir") {
		t.Errorf("no project: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(bare, ".env.loams")); err == nil {
		t.Error("written outside any project")
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func commit(t *testing.T, proj, name, content string) {
	t.Helper()
	os.WriteFile(filepath.Join(proj, name), []byte(content), 0o644)
	gitIn(t, proj, "add", "--", name)
	gitIn(t, proj, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "add "+name)
}

// Issue 28: ".env.loams (0600, git-ignored)" holds in a project that is not
// a git repository yet: a later `git init && git add -A` leaves the key out.
func TestEnvExportIgnoredBeforeGitStarts(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	env := cliEnv(t, "HOME="+t.TempDir())
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--port-base", portBase(t), "--no-start"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	proj, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(proj, "package.json"), []byte("{}\n"), 0o644)
	if _, errOut, code := loamsIn(t, env, proj, "env", "export", "--stack", "dev", "--write", ".env.loams"); code != 0 {
		t.Fatalf("export: %s", errOut)
	}
	gitIn(t, proj, "init", "-q")
	gitIn(t, proj, "add", "-A")
	cmd := exec.Command("git", "-C", proj, "ls-files", "--cached")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	staged, err := cmd.Output()
	if err != nil || strings.Contains(string(staged), ".env.loams") || !strings.Contains(string(staged), ".gitignore") {
		t.Fatalf("staged after git init: %q %v", staged, err)
	}
}
