package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/iostreams"
)

// init offers a stack per worktree only in a git project whose stack is
// cheap to copy, never under --yes, and writes only [dev] worktrees.
func TestInitOffersWorktreesWhereCheap(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	stackDir := filepath.Join(home, "stacks", "shop")
	_ = os.MkdirAll(filepath.Join(stackDir, "data"), 0o700)
	_ = os.WriteFile(filepath.Join(stackDir, "stack.toml"), []byte("schema = 1\nname = \"shop\"\n[storage]\nkind = \"dir\"\npath = \""+stackDir+"\"\n"), 0o600)
	ios, _, _, _ := iostreams.Test()
	f := &Factory{IO: ios, Getenv: func(k string) string {
		if k == "LOAMS_HOME" {
			return home
		}
		return ""
	}}
	plain, repo := t.TempDir(), t.TempDir()
	git(t, repo, "init", "-q")
	manifest := "# the app's manifest\n[dev]\nstack = \"shop\"\n\n[functions]\nx = 1\n"
	_ = os.WriteFile(filepath.Join(repo, "loams.toml"), []byte(manifest), 0o644)
	ctx := context.Background()
	for _, tc := range []struct {
		dir  string
		yes  bool
		want string // "" = asked
	}{
		{"", false, "not in a project"},
		{plain, false, "not a git repository"},
		{repo, true, "not chosen by --yes"},
		{repo, false, ""},
	} {
		r := &initRun{f: f, opts: &initOptions{stack: "shop", yes: tc.yes}, projectDir: tc.dir, res: &initResult{}}
		q, settled := planWorktrees(ctx, r)
		switch {
		case tc.want == "" && (settled != nil || !strings.Contains(q, "its own stack, a copy of shop")):
			t.Errorf("%s: not offered: %q %+v", tc.dir, q, settled)
		case tc.want != "" && (settled == nil || !strings.Contains(settled.Message, tc.want)):
			t.Errorf("%s yes=%v: %q %+v, want %q", tc.dir, tc.yes, q, settled, tc.want)
		}
	}
	r := &initRun{f: f, opts: &initOptions{stack: "shop"}, projectDir: repo, res: &initResult{}}
	if res := runWorktrees(ctx, r); res.Status != "done" {
		t.Fatalf("run: %+v", res)
	}
	got, _ := os.ReadFile(filepath.Join(repo, "loams.toml"))
	if want := strings.Replace(manifest, "stack = \"shop\"\n", "stack = \"shop\"\nworktrees = \"clone\"\n", 1); string(got) != want {
		t.Errorf("loams.toml:\n%s\nwant:\n%s", got, want)
	}
	if _, settled := planWorktrees(ctx, r); settled == nil || settled.Status != "done" {
		t.Errorf("asked again once set: %+v", settled)
	}
}
