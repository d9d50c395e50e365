package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/update"
)

// waitChecked waits (polling the state file) until the background check
// has recorded its answer, and returns it.
func waitChecked(t *testing.T, loamsHome string) update.State {
	t.Helper()
	path := filepath.Join(loamsHome, "update-check.json")
	var s update.State
	waitUntil(t, func() bool { s = update.ReadState(path); return !s.CheckedAt.IsZero() },
		func() string { return fmt.Sprintf("no background check recorded in %s: %+v", path, s) })
	return s
}

// waitUntil polls done, ever less often, and fails with why() when it is
// not true within two minutes. The detached check gives up within
// update.CheckTimeout: two minutes is a hang guard, not a speed target, and
// says what went missing instead of holding go test until its own timeout.
func waitUntil(t *testing.T, done func() bool, why func() string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for wait := time.Millisecond; !done(); wait = min(wait*2, 100*time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal(why())
		}
		time.Sleep(wait)
	}
}

func envValueOf(env []string, key string) string { return envValue(env, key) }

// resetNotified makes the notice due again, as a day later would.
func resetNotified(t *testing.T, loamsHome string) {
	t.Helper()
	path := filepath.Join(loamsHome, "update-check.json")
	s := update.ReadState(path)
	s.NotifiedAt, s.Notified = time.Time{}, ""
	data, _ := json.Marshal(s)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

const noticeText = "loams 0.2.0 is out (this is 0.1.0): run `loams update`"

// The notice against a channel on 127.0.0.1: the first run at a terminal
// starts the check and says nothing; the next says it, once a day; each
// quiet case says nothing although the notice is due.
func TestUpdateNoticeAtATerminal(t *testing.T) {
	t.Parallel()
	ch := serveChannel(t, channelOptions{Version: "0.2.0", Binary: []byte("x")})
	bin := installed(t, loamsVersion(t, "0.1.0"))
	env := updateEnv(t, "LOAMS_CLI_RELEASES_URL="+ch.URL)
	lh := envValueOf(env, "LOAMS_HOME")

	if _, errOut, code, took := atTerminal(t, env, bin, "version"); code != 0 || strings.Contains(errOut, "is out") {
		t.Fatalf("first run: %d %q", code, errOut)
	} else {
		t.Logf("first run (starts the check): %s", took)
	}
	if s := waitChecked(t, lh); s.Latest != "0.2.0" || ch.Checks.Load() != 1 {
		t.Fatalf("check recorded %+v after %d requests", s, ch.Checks.Load())
	}
	if _, errOut, _, took := atTerminal(t, env, bin, "version"); !strings.Contains(errOut, noticeText) {
		t.Errorf("second run: %q", errOut)
	} else {
		t.Logf("run with the notice: %s", took)
	}
	if _, errOut, _, _ := atTerminal(t, env, bin, "version"); strings.Contains(errOut, "is out") {
		t.Errorf("said twice in a day: %q", errOut)
	}
	if n := ch.Checks.Load(); n != 1 {
		t.Errorf("the channel was asked %d times in a day", n)
	}

	quiet := map[string]func() (string, int){
		"CI":         func() (string, int) { _, e, c, _ := atTerminal(t, append(env, "CI=true"), bin, "version"); return e, c },
		"-o json":    func() (string, int) { _, e, c, _ := atTerminal(t, env, bin, "version", "-o", "json"); return e, c },
		"--no-input": func() (string, int) { _, e, c, _ := atTerminal(t, env, bin, "--no-input", "version"); return e, c },
		"LOAMS_NO_UPDATE_NOTIFIER=1": func() (string, int) {
			_, e, c, _ := atTerminal(t, append(env, "LOAMS_NO_UPDATE_NOTIFIER=1"), bin, "version")
			return e, c
		},
		"LOAMS_NO_UPDATE_CHECK=1": func() (string, int) {
			_, e, c, _ := atTerminal(t, append(env, "LOAMS_NO_UPDATE_CHECK=1"), bin, "version")
			return e, c
		},
		"mcp serve":             func() (string, int) { _, e, c, _ := atTerminal(t, env, bin, "mcp", "serve"); return e, c },
		"stderr not a terminal": func() (string, int) { _, e, c := run(t, env, bin, "version"); return e, c },
	}
	for name, runIt := range quiet {
		resetNotified(t, lh)
		if errOut, code := runIt(); code != 0 || strings.Contains(errOut, "is out") {
			t.Errorf("%s: %d %q", name, code, errOut)
		}
	}
	// update_check = false turns it off for good.
	if _, errOut, code := run(t, env, bin, "configure", "set", "update_check", "false"); code != 0 {
		t.Fatalf("configure set: %d %s", code, errOut)
	}
	resetNotified(t, lh)
	if _, errOut, _, _ := atTerminal(t, env, bin, "version"); strings.Contains(errOut, "is out") {
		t.Errorf("update_check false: %q", errOut)
	}
	// And the proof that each quiet case could have failed: it is due.
	if _, errOut, code := run(t, env, bin, "configure", "set", "update_check", "true"); code != 0 {
		t.Fatalf("configure set: %d %s", code, errOut)
	}
	if _, errOut, _, _ := atTerminal(t, env, bin, "version"); !strings.Contains(errOut, noticeText) {
		t.Errorf("due again, not said: %q", errOut)
	}
}

// A channel that never answers costs a command nothing: it returns (had
// it waited, the test would hang until the channel is released at its
// end), and the detached check records the failure once released.
func TestUpdateCheckNeverWaits(t *testing.T) {
	t.Parallel()
	ch := serveChannel(t, channelOptions{Version: "0.2.0", Hang: true})
	bin := installed(t, loamsVersion(t, "0.1.0"))
	env := updateEnv(t, "LOAMS_CLI_RELEASES_URL="+ch.URL)
	_, _, code, took := atTerminal(t, env, bin, "version")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	t.Logf("loams version with a hung channel: %s", took)
	waitUntil(t, func() bool { return ch.Checks.Load() > 0 }, // the detached check reaches the channel
		func() string { return "the detached check never reached the channel" })
	ch.Release()
	if s := waitChecked(t, envValueOf(env, "LOAMS_HOME")); s.Error == "" || s.Latest != "" {
		t.Errorf("state after a channel that answered nothing: %+v", s)
	}
	if _, errOut, _, _ := atTerminal(t, env, bin, "version"); strings.Contains(errOut, "is out") {
		t.Errorf("notice from a channel that never answered: %q", errOut)
	}
}

// A development build never says a newer loams is out.
func TestUpdateNoticeNotForDevBuilds(t *testing.T) {
	t.Parallel()
	ch := serveChannel(t, channelOptions{Version: "0.2.0", Binary: []byte("x")})
	env := updateEnv(t, "LOAMS_CLI_RELEASES_URL="+ch.URL)
	lh := envValueOf(env, "LOAMS_HOME")
	data, _ := json.Marshal(update.State{CheckedAt: time.Now(), Latest: "9.9.9"})
	if err := os.WriteFile(filepath.Join(lh, "update-check.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code, _ := atTerminal(t, env, testbin.Loams(t), "version"); code != 0 || strings.Contains(errOut, "is out") {
		t.Errorf("dev build: %d %q", code, errOut)
	}
}
