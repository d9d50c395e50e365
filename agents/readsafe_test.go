//go:build unix

package agents

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"loams.dev/cli/internal/errs"
)

// issue 24 (MEDIUM): what stands at a host's config path is hostile until
// checked. Each finding, for every host and scope: the command ends with a
// coded error (never internal, never a hang, never unbounded memory) and
// writes nothing. On the old code the /dev/zero and FIFO rows never return
// (the test times out), and the directory and parent rows are `internal`.
func TestHostileConfigPaths(t *testing.T) {
	t.Parallel()
	findings := []struct {
		name  string
		plant func(t *testing.T, w *world, path string)
		// want for a user scope, and for a project scope (where the
		// project rule may speak first).
		user, project errs.Code
	}{
		{"symlink to /dev/zero", func(t *testing.T, w *world, path string) {
			mkdirs(t, path)
			os.Symlink("/dev/zero", path)
		}, errs.ConfigUnreadable, errs.PathOutsideProject},
		{"fifo", func(t *testing.T, w *world, path string) {
			mkdirs(t, path)
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Skip("no mkfifo here:", err)
			}
		}, errs.ConfigUnreadable, errs.ConfigUnreadable},
		{"directory", func(t *testing.T, w *world, path string) {
			os.MkdirAll(path, 0o755)
		}, errs.ConfigUnreadable, errs.ConfigUnreadable},
		{"parent is a file", func(t *testing.T, w *world, path string) {
			parent := filepath.Dir(path)
			os.RemoveAll(parent)
			os.MkdirAll(filepath.Dir(parent), 0o755)
			os.WriteFile(parent, []byte("not a directory\n"), 0o644)
		}, errs.ConfigUnreadable, errs.ConfigUnreadable},
		{"symlink out of the project", func(t *testing.T, w *world, path string) {
			outside := filepath.Join(w.root, "elsewhere.json")
			os.WriteFile(outside, []byte("{}\n"), 0o600)
			mkdirs(t, path)
			os.Symlink(outside, path)
		}, "", errs.PathOutsideProject},
		{"directory link out of the project", func(t *testing.T, w *world, path string) {
			parent := filepath.Dir(path)
			if parent == w.project {
				t.Skip("the file sits at the project root")
			}
			outside := filepath.Join(w.root, "elsewhere")
			os.MkdirAll(outside, 0o755)
			os.MkdirAll(filepath.Dir(parent), 0o755)
			os.Symlink(outside, parent)
		}, "", errs.PathOutsideProject},
	}
	for _, f := range findings {
		for _, c := range allScopes() {
			want := f.user
			if isProject(c.agent, c.scope) {
				want = f.project
			}
			if want == "" {
				continue // a user's dotfiles link may lead anywhere
			}
			t.Run(f.name+"/"+c.agent+"-"+c.scope, func(t *testing.T) {
				t.Parallel()
				w := newWorld(t)
				path := w.configPath(c.agent, c.scope)
				f.plant(t, w, path)
				_, err := w.install(t, c.agent, c.scope)
				if !errs.Is(err, want) || errs.As(err).Hint == "" {
					t.Fatalf("install: got %v, want %s with a hint", err, want)
				}
				if _, err := os.Lstat(path + ".loams-backup"); err == nil {
					t.Error("a backup was written")
				}
				if _, err := os.Stat(filepath.Join(w.root, "elsewhere.json")); err == nil && string(mustRead(t, filepath.Join(w.root, "elsewhere.json"))) != "{}\n" {
					t.Error("the file outside the project was edited")
				}
				if entries, _ := os.ReadDir(filepath.Join(w.root, "elsewhere")); len(entries) > 0 {
					t.Error("a file was written outside the project")
				}
				// doctor walks every location: it comes back and names the file.
				checks, err := Doctor(context.Background(), w.env)
				if err != nil {
					t.Fatalf("doctor: %v", err)
				}
				found := false
				for _, c := range checks {
					found = found || strings.HasPrefix(c.Error, string(want)) && c.Fix != ""
				}
				if !found {
					t.Errorf("doctor does not report it: %+v", checks)
				}
			})
		}
	}
}

// A recorded file that became a FIFO since: uninstall refuses, quickly.
func TestUninstallRefusesAFIFO(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	if _, err := w.install(t, "cursor", "project"); err != nil {
		t.Fatal(err)
	}
	path := w.configPath("cursor", "project")
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no mkfifo here:", err)
	}
	if _, err := Uninstall(context.Background(), w.env, UninstallRequest{Agent: "cursor"}); !errs.Is(err, errs.ConfigUnreadable) {
		t.Fatalf("got %v", err)
	}
}

// A file larger than the cap is refused before it is read.
func TestOversizedConfigRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := w.configPath("cursor", "user")
	mkdirs(t, path)
	if err := os.WriteFile(path, make([]byte, maxConfigSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := w.install(t, "cursor", "user"); !errs.Is(err, errs.ConfigUnreadable) {
		t.Fatalf("got %v", err)
	}
}

// A link inside the project (a shared config kept elsewhere in the repo)
// is still edited through the link.
func TestProjectLinkInsideProjectAllowed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := w.configPath("vscode", "project")
	target := filepath.Join(w.project, "config", "mcp.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte("{}\n"), 0o644)
	mkdirs(t, path)
	os.Symlink("../config/mcp.json", path)
	if _, err := w.install(t, "vscode", "project"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(path); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
}

// ~/.claude.json is Claude Code's state file too, and real ones pass the
// 4 MiB cap (8 to 100 MB reported): its scopes read up to 256 MiB.
func TestLargeClaudeStateFileIsRead(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := w.configPath("claude-code", "user")
	big := `{"history":"` + strings.Repeat("x", maxConfigSize) + `"}` + "\n"
	if err := os.WriteFile(path, []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := w.install(t, "claude-code", "user"); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(context.Background(), w.env, UninstallRequest{Agent: "claude-code"}); err != nil {
		t.Fatal(err)
	}
	if string(mustRead(t, path)) != big {
		t.Fatal("not given back")
	}
}
