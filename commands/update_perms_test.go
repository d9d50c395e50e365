//go:build unix

package commands

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
)

// `loams update --rollback` runs (smoke test) and installs the binary
// update/previous.json names. Another local user who can write that file,
// the binary or a directory on the way must not get their program run as
// this user: unsafe_permissions (exit 8), nothing run, nothing replaced.
// The first case is the control: the same layout, private, rolls back.
func TestRollbackRefusesWhatOthersCouldWrite(t *testing.T) {
	t.Parallel()
	cur := loamsVersion(t, "0.2.0")
	curBytes, _ := os.ReadFile(cur)
	for _, tc := range []struct {
		name  string
		alter func(t *testing.T, home, kept, evil string) // makes the layout unsafe
		code  int
	}{
		{"private (control)", func(*testing.T, string, string, string) {}, 0},
		{"LOAMS_HOME world-writable", func(t *testing.T, home, _, _ string) { chmod(t, home, 0o777) }, 8},
		{"update/ group-writable", func(t *testing.T, home, _, _ string) { chmod(t, filepath.Join(home, "update"), 0o770) }, 8},
		{"kept binary group-writable", func(t *testing.T, _, kept, _ string) { chmod(t, kept, 0o775) }, 8},
		{"previous.json of another user", func(t *testing.T, home, _, _ string) {
			chown(t, filepath.Join(home, "update", "previous.json"))
		}, 8},
		{"previous.json names a file outside update/", func(t *testing.T, home, _, evil string) {
			writePrevious(t, home, evil)
		}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, marker := t.TempDir(), filepath.Join(t.TempDir(), "ran")
			script := "#!/bin/sh\ntouch '" + marker + "'\necho '{\"version\":\"0.1.0\"}'\n"
			if err := os.MkdirAll(filepath.Join(home, "update"), 0o700); err != nil {
				t.Fatal(err)
			}
			chmod(t, home, 0o700)
			kept := filepath.Join(home, "update", "previous-loams")
			evil := filepath.Join(t.TempDir(), "evil")
			for _, p := range []string{kept, evil} {
				if err := testbin.WriteExecutable(p, []byte(script)); err != nil {
					t.Fatal(err)
				}
			}
			chmod(t, kept, 0o700)
			writePrevious(t, home, kept)
			tc.alter(t, home, kept, evil)

			bin := installed(t, cur)
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LOAMS_HOME=" + home, "LOAMS_NO_UPDATE_NOTIFIER=1"}
			_, errOut, code := run(t, env, bin, "update", "--rollback", "-o", "json")
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			_, err := os.Stat(marker)
			if tc.code == 0 {
				if err != nil {
					t.Error("the control did not run the kept binary's smoke test")
				}
				return
			}
			if err == nil {
				t.Error("the binary was run")
			}
			if !strings.Contains(errOut, "unsafe_permissions") {
				t.Errorf("not unsafe_permissions: %s", errOut)
			}
			if now, _ := os.ReadFile(bin); !bytes.Equal(now, curBytes) {
				t.Error("the installed loams was replaced")
			}
		})
	}
}

func writePrevious(t *testing.T, home, binary string) {
	t.Helper()
	data, _ := json.Marshal(map[string]string{"version": "0.1.0", "binary": binary})
	if err := os.WriteFile(filepath.Join(home, "update", "previous.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// chown gives p to another user (nobody), or skips: only root can.
func chown(t *testing.T, p string) {
	t.Helper()
	if err := os.Chown(p, 65534, 65534); err != nil {
		t.Skipf("cannot give %s to another user here (%v): the multi-user case needs root", p, err)
	}
}

// The smoke test of a rollback (and an update) ends when the binary has
// answered and exited, even if a child of it keeps stdout open.
func TestRollbackSmokeTestDoesNotWaitForAChildHoldingStdout(t *testing.T) {
	t.Parallel()
	home, pidFile := t.TempDir(), filepath.Join(t.TempDir(), "child.pid")
	chmod(t, home, 0o700)
	if err := os.MkdirAll(filepath.Join(home, "update"), 0o700); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(home, "update", "previous-loams")
	script := "#!/bin/sh\necho '{\"version\":\"0.1.0\"}'\nsleep 60 &\necho $! > '" + pidFile + "'\n"
	if err := testbin.WriteExecutable(kept, []byte(script)); err != nil {
		t.Fatal(err)
	}
	chmod(t, kept, 0o700)
	writePrevious(t, home, kept)
	t.Cleanup(func() { // the lingering child is the test's to end
		if data, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	bin := installed(t, loamsVersion(t, "0.2.0"))
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LOAMS_HOME=" + home, "LOAMS_NO_UPDATE_NOTIFIER=1"}
	start := time.Now()
	_, errOut, code := run(t, env, bin, "update", "--rollback")
	if took := time.Since(start); code != 0 || took > 20*time.Second {
		t.Fatalf("rollback: exit %d after %s (the child sleeps 60 s): %s", code, took.Round(time.Second), errOut)
	}
}

// Four `loams update` at once: one lock. None fails as `internal`, the
// loams ends up new, and the kept previous binary is the old one, so a
// rollback restores the very bytes that were there.
func TestConcurrentUpdatesKeepTheRollback(t *testing.T) {
	t.Parallel()
	newBin, old, oldBytes := oldAndNew(t)
	ch := serveChannel(t, channelOptions{Version: "0.2.0", Binary: newBin})
	bin := installed(t, old)
	env := updateEnv(t, "LOAMS_CLI_RELEASES_URL="+ch.URL, "LOAMS_TEST_MINISIGN_KEY="+ch.PublicKey, "LOAMS_NO_UPDATE_NOTIFIER=1")
	type outcome struct {
		code   int
		stderr string
	}
	results := make(chan outcome, 4)
	for range 4 {
		go func() {
			cmd := exec.Command(bin, "update", "-o", "json")
			cmd.Env = env
			var e bytes.Buffer
			cmd.Stderr = &e
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				code = -1
			}
			results <- outcome{code, e.String()}
		}()
	}
	for range 4 {
		r := <-results
		if r.code != 0 && !strings.Contains(r.stderr, "file_conflict") {
			t.Errorf("exit %d: %s", r.code, r.stderr)
		}
	}
	if v := versionOf(t, bin); v != "0.2.0" {
		t.Fatalf("after the updates: %s", v)
	}
	if _, errOut, code := run(t, env, bin, "update", "--rollback"); code != 0 {
		t.Fatalf("rollback: %d %s", code, errOut)
	}
	if now, _ := os.ReadFile(bin); !bytes.Equal(now, oldBytes) {
		t.Error("the rollback did not restore the loams that was there before the updates")
	}
}
