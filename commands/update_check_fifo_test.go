//go:build unix

package commands

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
)

// The detached update check opens only regular files and ends by its
// deadline: a FIFO as the mirror's checksums.txt (a file:// channel) or as
// update-check.json must not hold it (nor, for the state file, every
// command) forever.
func TestUpdateCheckIsNotHeldByAFIFO(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		fifo func(home, mirror string) string // where the FIFO goes
	}{
		{"checksums.txt of a file:// mirror", func(_, mirror string) string { return filepath.Join(mirror, "checksums.txt") }},
		{"update-check.json", func(home, _ string) string { return filepath.Join(home, "update-check.json") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, mirror := t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(mirror, "checksums.txt"), []byte(sums020), 0o644)
			p := tc.fifo(home, mirror)
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skipf("cannot make a FIFO here: %v", err)
			}
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LOAMS_HOME=" + home, "LOAMS_CLI_RELEASES_URL=file://" + mirror + "/"}
			for _, args := range [][]string{{"update", "--background-check"}, {"version"}} {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				cmd := exec.CommandContext(ctx, testbin.Loams(t), args...)
				cmd.Env = append(env, "LOAMS_NO_UPDATE_NOTIFIER=1")
				if args[0] == "version" {
					cmd.Env = env // the notifier reads update-check.json
				}
				start := time.Now()
				_ = cmd.Run()
				cancel()
				took := time.Since(start)
				t.Logf("%v: %s", args, took.Round(time.Millisecond))
				if took > 20*time.Second {
					t.Errorf("%v took %s", args, took.Round(time.Second))
				}
			}
		})
	}
}

const sums020 = "0000000000000000000000000000000000000000000000000000000000000001  loams_0.2.0_linux_amd64.tar.gz\n"

// servers/current and the probe cache are read only as regular files: a
// FIFO there must not hold `server list` (nor every stack create).
func TestServerFilesAreNotHeldByAFIFO(t *testing.T) {
	t.Parallel()
	for _, rel := range []string{"servers/current", "cache/server-probe.json"} {
		t.Run(rel, func(t *testing.T) {
			home := t.TempDir()
			p := filepath.Join(home, rel)
			os.MkdirAll(filepath.Dir(p), 0o700)
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skipf("cannot make a FIFO here: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, testbin.Loams(t), "server", "list", "-o", "json")
			cmd.Env = append(bareEnv(t, "/usr/bin:/bin", "LOAMS_SERVER_BINARY="+testbin.Build(t, "./internal/testkit/testserver")), "LOAMS_HOME="+home)
			start := time.Now()
			_ = cmd.Run()
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("server list took %s", took.Round(time.Second))
			}
		})
	}
}
