package project

import (
	"os"
	"path/filepath"
	"testing"

	"loams.dev/cli/internal/errs"
)

// Issue 16 item 11: one project rule for every command. A folder with only
// .cursor/ or only requirements.txt is a project; $HOME, which holds
// ~/.cursor for the user scope, never is by guess.
func TestFindUsesEveryMarkerButNeverHome(t *testing.T) {
	t.Parallel()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(base, "home")
	mk := func(parts ...string) string {
		p := filepath.Join(append([]string{home}, parts...)...)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk(".cursor") // user-scope config in $HOME
	cursorOnly := mk("cursor-only")
	mk("cursor-only", ".cursor")
	pip := mk("pip", "src", "pkg")
	os.WriteFile(filepath.Join(home, "pip", "requirements.txt"), []byte("flask\n"), 0o644)
	plain := mk("plain", "sub")
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	tests := []struct{ cwd, want string }{
		{cursorOnly, cursorOnly},
		{pip, filepath.Join(home, "pip")},
		{plain, ""}, // stops at $HOME although $HOME has .cursor
		{home, ""},
	}
	for _, tt := range tests {
		got, err := Find("", getenv, tt.cwd)
		if tt.want == "" {
			if !errs.Is(err, errs.Usage) {
				t.Errorf("Find(%s) = %q, %v; want no project", tt.cwd, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Find(%s) = %q, %v; want %q", tt.cwd, got, err, tt.want)
		}
	}
	// Explicit choices are taken as given, $HOME included.
	if got, err := Find(home, getenv, plain); err != nil || got != home {
		t.Errorf("--project-dir $HOME = %q, %v", got, err)
	}
	env := func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return plain
		}
		return getenv(k)
	}
	if got, err := Find("", env, home); err != nil || got != plain {
		t.Errorf("$CLAUDE_PROJECT_DIR = %q, %v", got, err)
	}
}

func TestUpToRepositoryStopsAtTheRepositoryRoot(t *testing.T) {
	t.Parallel()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	repo := filepath.Join(base, "repo")
	web := filepath.Join(repo, "packages", "web")
	os.MkdirAll(web, 0o755)
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	got := UpToRepository(web, "")
	want := []string{web, filepath.Join(repo, "packages"), repo}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if got := UpToRepository(filepath.Join(base, "x"), base); len(got) != 1 {
		t.Errorf("without a repository it stops before home: %v", got)
	}
}
