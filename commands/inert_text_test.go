package commands

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostile is what a server (or a file) may say to take over a terminal:
// OSC 52 sets the clipboard, CSI 2J clears the screen, and U+009B is CSI
// for an 8-bit terminal.
const hostile = `\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u009b31m\u007f`

// rawControls reports the first terminal control in s, other than newline
// and tab, as the bytes loams printed.
func rawControls(s string) string {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return strings.ToValidUTF8(string(r), "?")
		}
	}
	return ""
}

// Server answers reach the terminal inert: whoami's principal and status's
// edition, in table, text and json output alike, are shown with their
// controls escaped, never sent raw.
func TestServerAnswersAreInert(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/GetInstance") {
			w.Write([]byte(`{"serverVersion":"0.0.1","edition":"ed` + hostile + `","services":[]}`))
			return
		}
		w.Write([]byte(`{"principal":"me` + hostile + `","keyId":"r3m0te0key00"}`))
	}))
	defer srv.Close()
	env := append(os.Environ(), "LOAMS_HOME="+t.TempDir(), "LOAMS_SECRETS=file", "HOME="+t.TempDir(), "CI=true",
		"HTTP_PROXY=", "http_proxy=", "LOAMS_ENDPOINT=", "LOAMS_NO_UPDATE_NOTIFIER=1")
	if _, errOut, code := loamsWithStdin(t, env, t.TempDir(), remoteKey+"\n", "--endpoint", srv.URL, "login", "--with-api-key"); code != 0 {
		t.Fatalf("login: exit %d\n%s", code, errOut)
	}
	for _, args := range [][]string{{"whoami"}, {"status"}, {"whoami", "-o", "text"}, {"status", "-o", "text"}, {"whoami", "-o", "json"}, {"status", "-o", "json"}} {
		out, errOut, _ := loamsWithStdin(t, env, t.TempDir(), "", args...)
		if c := rawControls(out + errOut); c != "" {
			t.Errorf("%v printed the control %q raw:\n%q", args, c, out+errOut)
		}
		if !strings.Contains(out, `]52;c;ZXZpbA==`) {
			t.Errorf("%v does not show the answer at all:\n%s", args, out)
		}
	}
}

// A server's log (stack logs) and a config file loams did not write
// (configure get of a value someone put there) are shown inert too.
func TestFilesAndLogsAreInert(t *testing.T) {
	t.Parallel()
	env := cliEnv(t, "LOAMS_NO_UPDATE_NOTIFIER=1")
	home := envValue(env, "LOAMS_HOME")
	if _, errOut, code := loams(t, env, "stack", "create", "--name", "dev", "--no-start"); code != 0 {
		t.Fatalf("create: %d %s", code, errOut)
	}
	logs := filepath.Join(home, "stacks", "dev", "logs")
	os.MkdirAll(logs, 0o700)
	if err := os.WriteFile(filepath.Join(logs, "server.log"), []byte("started\n\x1b]52;c;ZXZpbA==\x07\x1b[2J\u009b31m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	cfg = append(cfg, []byte("\n[profile.odd]\noutput = \"table\"\nendpoint = \"https://x.example/\\u001b]52;c;ZXZpbA==\\u0007\"\n")...)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"stack", "logs", "--name", "dev"}, {"stack", "logs", "--name", "dev", "-o", "json"},
		{"--profile", "odd", "configure", "get", "endpoint"}, {"--profile", "odd", "configure", "list"}} {
		out, errOut, _ := loams(t, env, args...)
		if c := rawControls(out + errOut); c != "" {
			t.Errorf("%v printed the control %q raw:\n%q", args, c, out+errOut)
		}
		if !strings.Contains(out+errOut, `]52;c;ZXZpbA==`) {
			t.Errorf("%v does not show the text at all:\n%s%s", args, out, errOut)
		}
	}
}
