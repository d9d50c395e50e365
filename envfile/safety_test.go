package envfile

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/project"
)

// gitRepo makes a real repository (git init) and commits the files given;
// it skips the test when git is absent.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the tracked-file rules need it")
	}
	base, _ := filepath.EvalSymlinks(t.TempDir())
	dir := filepath.Join(base, "proj")
	gitRun(t, base, "init", "-q", dir)
	if len(files) > 0 {
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			gitRun(t, dir, "add", "--", name)
		}
		gitRun(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "files")
	}
	return dir
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// snapshot lists every file under dir with its bytes and mode, to check
// that a refused export changed nothing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.IsDir() && fi.Name() == ".git" {
			return filepath.SkipDir
		}
		b, _ := os.ReadFile(p)
		out[p] = fi.Mode().String() + " " + string(b)
		return nil
	})
	return out
}

func sameFiles(t *testing.T, label string, before, after map[string]string) {
	t.Helper()
	for p, v := range after {
		if before[p] != v {
			t.Errorf("%s: %s changed or appeared: %q (was %q)", label, p, v, before[p])
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s: %s disappeared", label, p)
		}
	}
}

// Issue 11 item 14: the key never goes into a file git tracks, nor into one
// a tool executes; a refused call writes nothing at all, not even
// .env.loams.
func TestAgentExportRefusesTrackedAndExecutedFiles(t *testing.T) {
	t.Parallel()
	proj := gitRepo(t, map[string]string{".env.example": "API_KEY=\n", ".env": "A=1\n"})
	os.WriteFile(filepath.Join(proj, ".envrc"), []byte("use node\n"), 0o644)
	tests := []struct {
		path, merge string
		code        errs.Code
		message     string
	}{
		{merge: ".env.example", code: errs.FileTracked, message: "`.env.example` is committed; the key would be too"},
		{merge: ".env", code: errs.FileTracked, message: "`.env` is committed"},
		{path: ".env.example", code: errs.FileTracked},
		{merge: ".envrc", code: errs.Forbidden, message: "executed by direnv"},
		{path: ".envrc", code: errs.Forbidden},
		{merge: ".env.local.sh", code: errs.Forbidden, message: "executed by a shell"},
		{merge: ".env.mjs", code: errs.Forbidden},
	}
	for _, tt := range tests {
		before := snapshot(t, proj)
		_, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj, Path: tt.path, MergeInto: tt.merge, Version: "0.1.0", Now: at})
		if !errs.Is(err, tt.code) || !strings.Contains(errString(err), tt.message) {
			t.Errorf("%+v: err = %v, want %s %q", tt, err, tt.code, tt.message)
		}
		if tt.code == errs.FileTracked && errs.As(err).ExitCode() != 5 {
			t.Errorf("file_tracked exits %d, want 5", errs.As(err).ExitCode())
		}
		sameFiles(t, tt.path+tt.merge, before, snapshot(t, proj))
	}
}

// The same rules hold for the CLI's --merge/--write (paths as given, no
// confinement, but the key still never goes into a committed or executed file).
func TestCLIExportRefusesTrackedAndExecutedFiles(t *testing.T) {
	t.Parallel()
	proj := gitRepo(t, map[string]string{".env.example": "API_KEY=\n"})
	for _, tgt := range []Target{
		{Merge: filepath.Join(proj, ".env.example"), Write: filepath.Join(proj, ".env.loams"), Gitignore: true},
		{Merge: filepath.Join(proj, ".envrc"), Gitignore: true},
		{Write: filepath.Join(proj, ".env.example")},
	} {
		before := snapshot(t, proj)
		if _, err := Export(context.Background(), devStack(), tgt); !errs.Is(err, errs.FileTracked) && !errs.Is(err, errs.Forbidden) {
			t.Errorf("%+v: err = %v", tgt, err)
		}
		sameFiles(t, "cli", before, snapshot(t, proj))
	}
}

// A merge target git does not ignore is added to .gitignore with
// .env.loams, and a file holding the key ends 0600 even when it was 0644.
func TestMergeTargetIsIgnoredAndEnds0600(t *testing.T) {
	t.Parallel()
	proj := gitRepo(t, nil)
	env := filepath.Join(proj, ".env")
	os.WriteFile(env, []byte("A=1\n"), 0o644)
	res, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj, MergeInto: ".env", Version: "0.1.0", Now: at})
	if err != nil {
		t.Fatal(err)
	}
	gi, _ := os.ReadFile(filepath.Join(proj, ".gitignore"))
	if string(gi) != ".env.loams\n.env\n" {
		t.Errorf(".gitignore = %q", gi)
	}
	if !res.GitignoreUpdated || strings.Join(res.GitignoreAdded, ",") != ".env.loams,.env" || strings.Join(res.ModeTightened, ",") != env {
		t.Errorf("result = %+v", res)
	}
	for _, p := range []string{env, filepath.Join(proj, ".env.loams")} {
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %o, want 600", p, fi.Mode().Perm())
		}
	}
	// Twice: nothing more added to .gitignore.
	if _, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj, MergeInto: ".env", Version: "0.1.0", Now: at}); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(filepath.Join(proj, ".gitignore")); string(again) != string(gi) {
		t.Errorf("second export changed .gitignore: %q", again)
	}
}

// Issue 11 item 16: read-only files are refused with forbidden and kept. We
// run as root in CI, where EACCES never comes: the mode bits decide.
func TestReadOnlyTargetsAreRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		mode os.FileMode
		req  AgentRequest
	}{
		{".env.loams", 0o400, AgentRequest{}},
		{".env", 0o444, AgentRequest{MergeInto: ".env"}},
	} {
		proj := gitRepo(t, nil)
		p := filepath.Join(proj, tt.name)
		os.WriteFile(p, []byte("MINE=1\n"), tt.mode)
		before := snapshot(t, proj)
		tt.req.ProjectDir = proj
		_, err := ExportForAgent(context.Background(), devStack(), tt.req)
		if !errs.Is(err, errs.Forbidden) || !strings.Contains(errString(err), "read-only") {
			t.Errorf("%s %o: err = %v, want forbidden (read-only)", tt.name, tt.mode, err)
		}
		sameFiles(t, tt.name, before, snapshot(t, proj))
		if _, err := Export(context.Background(), devStack(), Target{Write: p}); !errs.Is(err, errs.Forbidden) {
			t.Errorf("CLI --write %s %o: err = %v", tt.name, tt.mode, err)
		}
		sameFiles(t, tt.name+" (cli)", before, snapshot(t, proj))
	}
}

// Issue 11 item 15: a .gitignore that links outside the project is neither
// read nor written; one that links inside is edited through the link.
func TestGitignoreSymlinks(t *testing.T) {
	t.Parallel()
	proj := gitRepo(t, nil)
	outside := filepath.Join(filepath.Dir(proj), "global-ignore")
	os.WriteFile(outside, []byte("*.log\n"), 0o644)
	gi := filepath.Join(proj, ".gitignore")
	if err := os.Symlink(outside, gi); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, filepath.Dir(proj))
	_, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj})
	if !errs.Is(err, errs.PathOutsideProject) || !strings.Contains(hint(err), "--no-gitignore") {
		t.Fatalf("err = %v (hint %q), want path_outside_project with a hint", err, hint(err))
	}
	sameFiles(t, "outside link", before, snapshot(t, filepath.Dir(proj)))
	if fi, _ := os.Lstat(gi); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}

	os.Remove(gi)
	os.Mkdir(filepath.Join(proj, "config"), 0o755)
	os.WriteFile(filepath.Join(proj, "config", "ignore"), []byte("node_modules\n"), 0o644)
	os.Symlink(filepath.Join("config", "ignore"), gi)
	for i := 0; i < 2; i++ {
		if _, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj}); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "config", "ignore")); string(b) != "node_modules\n.env.loams\n" {
		t.Errorf("link target = %q", b)
	}
	if fi, _ := os.Lstat(gi); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the inside link was replaced by a file")
	}
}

// Issue 11 item 18: a .gitignore that is a directory stops the export before
// the key is written, and the error says nothing was written.
func TestUnwritableGitignoreWritesNothing(t *testing.T) {
	t.Parallel()
	for _, setup := range []func(gi string){
		func(gi string) { os.Mkdir(gi, 0o755) },
		func(gi string) { os.WriteFile(gi, []byte("a\n"), 0o444) },
	} {
		proj := gitRepo(t, nil)
		setup(filepath.Join(proj, ".gitignore"))
		os.WriteFile(filepath.Join(proj, ".env"), []byte("A=1\n"), 0o600)
		before := snapshot(t, proj)
		_, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj, MergeInto: ".env"})
		if !errs.Is(err, errs.Forbidden) || !strings.Contains(errString(err), "nothing was written") {
			t.Errorf("err = %v, want forbidden saying nothing was written", err)
		}
		sameFiles(t, ".gitignore", before, snapshot(t, proj))
	}
}

// A write that fails half-way undoes the ones before it.
func TestApplyUndoesEarlierWrites(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	kept := filepath.Join(dir, ".gitignore")
	os.WriteFile(kept, []byte("a\n"), 0o644)
	fresh := filepath.Join(dir, ".env.loams")
	steps := []step{
		{real: kept, data: []byte("a\n.env.loams\n"), perm: 0o644},
		{real: fresh, data: []byte("KEY=1\n"), perm: 0o600},
		{real: filepath.Join(dir, "missing", ".env"), data: []byte("x"), perm: 0o600},
	}
	for i := range steps {
		if err := steps[i].snapshot(); err != nil {
			t.Fatal(err)
		}
	}
	err := apply(steps)
	if !errs.Is(err, errs.Forbidden) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(kept); string(b) != "a\n" {
		t.Errorf(".gitignore not restored: %q", b)
	}
	if fi, _ := os.Stat(kept); fi.Mode().Perm() != 0o644 {
		t.Errorf(".gitignore mode %o", fi.Mode().Perm())
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("a new file was left behind")
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func hint(err error) string {
	if err == nil {
		return ""
	}
	return errs.As(err).Hint
}

// Writing and merging the same file would lose one of the two: refused.
func TestWriteAndMergeTheSameFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, ".env")
	os.WriteFile(p, []byte("A=1\n"), 0o600)
	if _, err := Export(context.Background(), devStack(), Target{Write: p, Merge: p}); !errs.Is(err, errs.Usage) {
		t.Fatalf("err = %v, want usage", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "A=1\n" {
		t.Errorf("file changed: %q", b)
	}
}

// A planned .gitignore edit undone after a later failure comes back with its
// bytes and its mode (a 0640 .gitignore stays 0640, a new one is removed).
func TestGitignoreEditIsUndoneWithItsMode(t *testing.T) {
	t.Parallel()
	proj := gitRepo(t, nil)
	gi := filepath.Join(proj, ".gitignore")
	os.WriteFile(gi, []byte("node_modules\n"), 0o640)
	edits, err := project.PlanIgnore(context.Background(), proj, filepath.Join(proj, ".env.loams"))
	if err != nil || len(edits) != 1 {
		t.Fatalf("edits %+v, %v", edits, err)
	}
	steps := []step{ignoreStep(edits[0]), {real: filepath.Join(proj, "missing", ".env"), data: []byte("x"), perm: 0o600}}
	if err := apply(steps); err == nil {
		t.Fatal("want the second write to fail")
	}
	b, _ := os.ReadFile(gi)
	fi, _ := os.Stat(gi)
	if string(b) != "node_modules\n" || fi.Mode().Perm() != 0o640 {
		t.Errorf(".gitignore after undo: %q mode %o", b, fi.Mode().Perm())
	}
}

// Issue 24 (LOW): .envrc was refused while .envrc.local, .env.bashrc and
// paths inside .git/ took the key. One rule now covers every file a shell
// or a tool sources at its start, and git's own directory.
func TestKeyNeverGoesToAShellSourcedOrGitFile(t *testing.T) {
	t.Parallel()
	proj := gitRepo(t, map[string]string{"README.md": "x\n"})
	for _, p := range []string{".envrc.local", ".envrc.private", ".env.bashrc", ".env.zshrc", ".git/.env.loams", ".git/hooks/.env",
		".env.zshenv", ".env.profile", ".env.bash_profile", ".env.login", ".env.SH", ".GIT/.env", ".Git./.env", "GIT~1/.env"} {
		os.MkdirAll(filepath.Join(proj, filepath.Dir(p)), 0o755) // a missing directory must not be why it is refused
		before := snapshot(t, proj)
		_, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj, Path: p, Version: "0.1.0", Now: at})
		if !errs.Is(err, errs.Forbidden) {
			t.Errorf("agent path %s: err = %v, want forbidden", p, err)
		}
		sameFiles(t, p, before, snapshot(t, proj))
	}
	for _, name := range []string{".bashrc", ".zshrc", ".profile", ".bash_profile", ".zshenv", ".npmrc", ".envrc.local"} {
		_, err := Export(context.Background(), devStack(), Target{Merge: filepath.Join(proj, name)})
		if !errs.Is(err, errs.Forbidden) {
			t.Errorf("CLI --merge %s: err = %v, want forbidden", name, err)
		}
	}
	// The files loams is for still take it.
	if _, err := ExportForAgent(context.Background(), devStack(), AgentRequest{ProjectDir: proj, Path: ".env.local", Version: "0.1.0", Now: at}); err != nil {
		t.Errorf(".env.local: %v", err)
	}
}
