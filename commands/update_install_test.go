package commands

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `loams update` against a signed fixture release on 127.0.0.1: it
// installs 0.2.0 over an installed 0.1.0 and --rollback puts 0.1.0 back;
// a tampered archive, a bad signature and an unsigned release change
// nothing.
func TestUpdateInstallsAndRollsBack(t *testing.T) {
	t.Parallel()
	newBin, old, oldBytes := oldAndNew(t)

	for _, tc := range []struct {
		name string
		opts channelOptions
		key  bool // trust the channel's key
		args []string
		code int
		want string
	}{
		{"tampered archive", channelOptions{Tamper: true}, true, nil, 9, "checksum_mismatch"},
		{"bad signature", channelOptions{SignWithOther: true}, true, nil, 9, "signature_invalid"},
		{"unsigned", channelOptions{}, false, nil, 9, "signature_invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Version, tc.opts.Binary = "0.2.0", newBin
			ch := serveChannel(t, tc.opts)
			bin := installed(t, old)
			env := updateEnv(t, "LOAMS_CLI_RELEASES_URL="+ch.URL)
			if tc.key {
				env = append(env, "LOAMS_TEST_MINISIGN_KEY="+ch.PublicKey)
			}
			_, errOut, code := run(t, env, bin, append([]string{"update", "-o", "json"}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, want %d %s: %s", code, tc.code, tc.want, errOut)
			}
			if now, _ := os.ReadFile(bin); !bytes.Equal(now, oldBytes) {
				t.Error("the installed loams changed")
			}
			if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(bin), ".loams-*")); len(leftovers) > 0 {
				t.Errorf("left behind: %v", leftovers)
			}
		})
	}

	t.Run("signed", func(t *testing.T) {
		ch := serveChannel(t, channelOptions{Version: "0.2.0", Binary: newBin})
		bin := installed(t, old)
		env := updateEnv(t, "LOAMS_CLI_RELEASES_URL="+ch.URL, "LOAMS_TEST_MINISIGN_KEY="+ch.PublicKey)
		out, errOut, code := run(t, env, bin, "update")
		if code != 0 || versionOf(t, bin) != "0.2.0" || !strings.Contains(out, "loams 0.1.0 → 0.2.0") {
			t.Fatalf("update: %d %s %s", code, out, errOut)
		}
		// Up to date now: nothing is downloaded again.
		if out, _, code := run(t, env, bin, "update"); code != 0 || !strings.Contains(out, "0.2.0 is the newest release") {
			t.Errorf("second update: %d %s", code, out)
		}
		if out, errOut, code := run(t, env, bin, "update", "--rollback"); code != 0 || versionOf(t, bin) != "0.1.0" {
			t.Fatalf("rollback: %d %s %s", code, out, errOut)
		}
		if now, _ := os.ReadFile(bin); !bytes.Equal(now, oldBytes) {
			t.Error("rollback did not restore the very binary")
		}
	})

	t.Run("unsigned allowed", func(t *testing.T) {
		ch := serveChannel(t, channelOptions{Version: "0.2.0", Binary: newBin})
		bin := installed(t, old)
		env := updateEnv(t, "LOAMS_CLI_RELEASES_URL="+ch.URL)
		_, errOut, code := run(t, env, bin, "update", "--allow-unsigned")
		if code != 0 || versionOf(t, bin) != "0.2.0" || !strings.Contains(errOut, "UNSIGNED") {
			t.Errorf("--allow-unsigned: %d %s", code, errOut)
		}
	})

	t.Run("a broken new binary", func(t *testing.T) {
		ch := serveChannel(t, channelOptions{Version: "0.2.0", Binary: []byte("#!/bin/sh\nexit 3\n")})
		bin := installed(t, old)
		env := updateEnv(t, "LOAMS_CLI_RELEASES_URL="+ch.URL, "LOAMS_TEST_MINISIGN_KEY="+ch.PublicKey)
		if _, errOut, code := run(t, env, bin, "update"); code == 0 || !strings.Contains(errOut, "smoke test") || versionOf(t, bin) != "0.1.0" {
			t.Errorf("broken binary: %d %s", code, errOut)
		}
	})
}

// A Homebrew loams is upgraded by brew: printed, or run with --yes.
func TestUpdateHomebrewInstall(t *testing.T) {
	t.Parallel()
	bin := installed(t, loamsVersion(t, "0.1.0"), "Caskroom", "loams", "0.1.0")
	stub := t.TempDir()
	log := filepath.Join(t.TempDir(), "brew.log")
	if err := os.WriteFile(filepath.Join(stub, "brew"), []byte("#!/bin/sh\necho \"brew $*\" >> '"+log+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := updateEnv(t)
	env[0] = "PATH=" + stub + string(os.PathListSeparator) + os.Getenv("PATH")
	if out, _, code := run(t, env, bin, "update"); code != 0 || !strings.Contains(out, "run `brew upgrade --cask loams`") {
		t.Errorf("update: %d %s", code, out)
	}
	if _, err := os.Stat(log); !os.IsNotExist(err) {
		t.Error("brew ran without --yes")
	}
	if out, errOut, code := run(t, env, bin, "update", "--yes", "-o", "json"); code != 0 || !strings.Contains(out, `"ran": true`) {
		t.Errorf("update --yes: %d %s %s", code, out, errOut)
	}
	if got, _ := os.ReadFile(log); string(got) != "brew upgrade --cask loams\n" {
		t.Errorf("brew was run as %q", got)
	}
}
