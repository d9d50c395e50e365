//go:build unix

package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// The server binary loams runs may come from config.toml's server_binary
// or from servers/ (`loams server install`). When another local user could
// have written the file that names it, or the installed binary, or a
// directory on the way inside LOAMS_HOME, nothing is run: unsafe_permissions
// (exit 8). Each layout has its private control, which does run the
// candidate (it is not a server, so create then fails with exit 4).
func TestServerBinaryFromFilesOthersCouldWrite(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, home, script string) // writes the layout; returns nothing
		alter func(t *testing.T, home string)
	}{
		{"config.toml group-writable", profileBinary, func(t *testing.T, home string) { chmod(t, filepath.Join(home, "config.toml"), 0o660) }},
		{"config.toml of another user", profileBinary, func(t *testing.T, home string) { chown(t, filepath.Join(home, "config.toml")) }},
		{"servers/ world-writable", currentBinary, func(t *testing.T, home string) { chmod(t, filepath.Join(home, "servers"), 0o777) }},
		{"servers/current of another user", currentBinary, func(t *testing.T, home string) { chown(t, filepath.Join(home, "servers", "current")) }},
		{"installed binary group-writable", currentBinary, func(t *testing.T, home string) {
			chmod(t, filepath.Join(home, "servers", "0.2.0", "standard", "loams"), 0o775)
		}},
	} {
		for _, control := range []bool{true, false} {
			name := tc.name
			if control {
				name += " (private control)"
			}
			t.Run(name, func(t *testing.T) {
				home, marker := t.TempDir(), filepath.Join(t.TempDir(), "ran")
				chmod(t, home, 0o700)
				tc.setup(t, home, "#!/bin/sh\ntouch '"+marker+"'\n")
				if !control {
					tc.alter(t, home)
				}
				env := []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "LOAMS_HOME=" + home, "LOAMS_SECRETS=file", "CI=true",
					"LOAMS_NO_UPDATE_NOTIFIER=1", "LOAMS_TEST_ROOT=" + t.TempDir()}
				_, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--no-start", "-o", "json")
				_, ran := os.Stat(marker)
				if control {
					if ran != nil || code != 4 {
						t.Errorf("control: exit %d (want 4), ran: %v: %s", code, ran == nil, errOut)
					}
					return
				}
				if code != 8 || !strings.Contains(errOut, "unsafe_permissions") || ran == nil {
					t.Errorf("exit %d, ran: %v; want unsafe_permissions (8) and nothing run: %s", code, ran == nil, errOut)
				}
			})
		}
	}
}

// profileBinary names a script as the default profile's server_binary.
func profileBinary(t *testing.T, home, script string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	if err := testbin.WriteExecutable(bin, []byte(script)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[profile.default]\nserver_binary = \""+bin+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// currentBinary installs a script as `loams server install` would, marked current.
func currentBinary(t *testing.T, home, script string) {
	t.Helper()
	dir := filepath.Join(home, "servers", "0.2.0", "standard")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "loams")
	if err := testbin.WriteExecutable(bin, []byte(script)); err != nil {
		t.Fatal(err)
	}
	chmod(t, bin, 0o755)
	if err := os.WriteFile(filepath.Join(home, "servers", "current"), []byte(bin+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}
