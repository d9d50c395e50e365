//go:build unix

package stack_test

import (
	"fmt"
	"loams.dev/cli/internal/testkit/testbin"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every directory loams makes is 0700, whatever the umask.
func TestDirectoriesAre0700(t *testing.T) {
	t.Parallel()
	h := newCLIHome(t)
	if r := h.run(t, "stack", "create", "--name", "dev", "--port-base", fmt.Sprint(portBase(t)), "--no-start"); r.code != 0 {
		t.Fatalf("create: %d %s", r.code, r.stderr)
	}
	for _, d := range []string{h.dir, filepath.Join(h.dir, "stacks"), filepath.Join(h.dir, "stacks", "dev"),
		filepath.Join(h.dir, "stacks", "dev", "data"), filepath.Join(h.dir, "stacks", "dev", "logs")} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v, want mode 0700", d, fi.Mode())
		}
	}
}

// Another user who can write the stack's directory could point
// server_binary at a script of theirs; start must refuse to run it (and to
// hand it the key) and say which chmod fixes it. Reading the key for
// .env.loams is refused the same way.
func TestUnsafePermissionsRefused(t *testing.T) {
	t.Parallel()
	h := newCLIHome(t)
	if r := h.run(t, "stack", "create", "--name", "dev", "--port-base", fmt.Sprint(portBase(t)), "--no-start"); r.code != 0 {
		t.Fatalf("create: %d %s", r.code, r.stderr)
	}
	dir := filepath.Join(h.dir, "stacks", "dev")
	spec := filepath.Join(dir, "stack.toml")
	marker := filepath.Join(t.TempDir(), "ran")
	evil := filepath.Join(t.TempDir(), "evil")
	if err := testbin.WriteExecutable(evil, []byte("#!/bin/sh\nenv > "+marker+"\n")); err != nil {
		t.Fatal(err)
	}
	body, _ := os.ReadFile(spec)
	var out []string
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "server_binary") {
			line = `server_binary = "` + evil + `"`
		}
		out = append(out, line)
	}
	if err := os.WriteFile(spec, []byte(strings.Join(out, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		mode os.FileMode
		fix  string
	}{
		{dir, 0o777, "chmod 700 " + dir},
		{spec, 0o622, "chmod 600 " + spec},
		{filepath.Join(h.dir, "stacks"), 0o770, "chmod 700 " + filepath.Join(h.dir, "stacks")},
		{h.dir, 0o757, "chmod 700 " + h.dir},
	} {
		orig, _ := os.Stat(tc.path)
		if err := os.Chmod(tc.path, tc.mode); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"stack", "start", "--name", "dev"}, {"stack", "run", "--name", "dev"}, {"env", "export", "--stack", "dev"}} {
			r := h.run(t, append(args, "-o", "json")...)
			if r.code != 8 || r.errObj.Code != "unsafe_permissions" || r.errObj.Details["path"] != tc.path || !strings.Contains(r.errObj.Hint, tc.fix) {
				t.Errorf("%v with %s at %o: exit %d %s, want unsafe_permissions naming it and %q", args, tc.path, tc.mode, r.code, r.stderr, tc.fix)
			}
			if strings.Contains(r.stdout, "loams_") {
				t.Errorf("%v printed a key", args)
			}
		}
		if err := os.Chmod(tc.path, orig.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getuid() == 0 { // only root can give a file away
		if err := os.Chown(spec, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		r := h.run(t, "stack", "start", "--name", "dev", "-o", "json")
		if r.code != 8 || r.errObj.Code != "unsafe_permissions" || r.errObj.Details["path"] != spec || !strings.Contains(r.errObj.Hint, "chown") {
			t.Errorf("stack.toml of another user: exit %d %s", r.code, r.stderr)
		}
		_ = os.Chown(spec, 0, 0)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the planted server_binary ran")
	}
}

// A full disk is disk_full (exit 7) and a write that is not allowed is
// forbidden (exit 8), each with the path: never internal. The disk is a
// 1 MiB tmpfs (needs root and mount); the refusal is an immutable
// directory as root (chattr +i: root ignores modes) or a 0500 one
// otherwise.
func TestDiskFullAndForbidden(t *testing.T) {
	t.Parallel()
	t.Run("disk_full", func(t *testing.T) {
		h := newCLIHome(t)
		if os.Getuid() != 0 {
			t.Skip("mounting a tiny tmpfs needs root")
		}
		if err := os.MkdirAll(h.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", h.dir).CombinedOutput(); err != nil {
			t.Skipf("mount tmpfs: %v %s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("umount", "-l", h.dir).Run() })
		if r := h.run(t, "stack", "create", "--name", "dev", "--port-base", fmt.Sprint(portBase(t)), "--no-start"); r.code != 0 {
			t.Fatalf("create: %d %s", r.code, r.stderr)
		}
		fill, _ := os.Create(filepath.Join(h.dir, "fill"))
		_, _ = fill.Write(make([]byte, 2<<20)) // until ENOSPC
		fill.Close()
		r := h.run(t, "stack", "create", "--name", "two", "--port-base", fmt.Sprint(portBase(t)), "--no-start", "-o", "json")
		path, _ := r.errObj.Details["path"].(string)
		if r.code != 7 || r.errObj.Code != "disk_full" || !strings.HasPrefix(path, h.dir) {
			t.Errorf("create on a full disk: exit %d %s, want disk_full naming a path in %s", r.code, r.stderr, h.dir)
		}
		if _, err := os.Stat(filepath.Join(h.dir, "stacks", "two")); err == nil {
			t.Error("the failed create must be rolled back")
		}
	})
	t.Run("forbidden", func(t *testing.T) {
		h := newCLIHome(t)
		if r := h.run(t, "stack", "create", "--name", "dev", "--port-base", fmt.Sprint(portBase(t)), "--no-start"); r.code != 0 {
			t.Fatalf("create: %d %s", r.code, r.stderr)
		}
		stacks := filepath.Join(h.dir, "stacks")
		if os.Getuid() == 0 {
			if out, err := exec.Command("chattr", "+i", stacks).CombinedOutput(); err != nil {
				t.Skipf("chattr +i (root ignores modes): %v %s", err, out)
			}
			t.Cleanup(func() { _ = exec.Command("chattr", "-i", stacks).Run() })
		} else {
			if err := os.Chmod(stacks, 0o500); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(stacks, 0o700) })
		}
		r := h.run(t, "stack", "create", "--name", "two", "--port-base", fmt.Sprint(portBase(t)), "--no-start", "-o", "json")
		path, _ := r.errObj.Details["path"].(string)
		if r.code != 8 || r.errObj.Code != "forbidden" || !strings.HasPrefix(path, stacks) {
			t.Errorf("create in a directory we may not write: exit %d %s, want forbidden naming a path in %s", r.code, r.stderr, stacks)
		}
	})
}
