package commands

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"loams.dev/cli/internal/iostreams"
	"loams.dev/cli/internal/testkit/testrelease"
)

// ttyRun runs loams in-process on a terminal (stdin, stderr) answering stdin.
func ttyRun(t *testing.T, env map[string]string, stdin string, argv ...string) (stdout, stderr string, code int) {
	t.Helper()
	ios, in, out, errOut := iostreams.Test()
	ios.StdinTTY, ios.StderrTTY = true, true
	in.WriteString(stdin)
	f := &Factory{IO: ios, Dir: t.TempDir(), Getenv: func(k string) string { return env[k] }, Now: time.Now,
		Executable: func() (string, error) { return "/nonexistent/loams", nil }}
	code = Run(context.Background(), f, append([]string{"loams"}, argv...), nil)
	return out.String(), errOut.String(), code
}

// At a terminal the download is asked for with its URL and size, drawn
// with a progress bar; "n" installs nothing. This in-process build has no
// test key (no loamstest tag), so it is also the --allow-unsigned path.
func TestServerInstallAsksAtATerminal(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_RELEASES_URL": rel.URL, "HOME": t.TempDir()}
	size := rel.Manifest.Artifacts[0].Size
	question := "Download the Loams server from " + rel.URL + rel.Manifest.Artifacts[0].URL + " (" + sizeText(size) + ")? [y/N]"

	_, errOut, code := ttyRun(t, env, "", "server", "install")
	if code != 9 || !strings.Contains(errOut, "pass --allow-unsigned") {
		t.Fatalf("no key and no --allow-unsigned: exit %d %s", code, errOut)
	}
	_, errOut, code = ttyRun(t, env, "n\n", "server", "install", "--allow-unsigned")
	if code != 3 || !strings.Contains(errOut, question) || !strings.Contains(errOut, "UNSIGNED") || rel.Requests.Load() != 0 {
		t.Fatalf("answer n: exit %d, %d downloads\n%s", code, rel.Requests.Load(), errOut)
	}
	out, errOut, code := ttyRun(t, env, "y\n", "server", "install", "--allow-unsigned")
	if code != 0 || !strings.Contains(errOut, "downloading [##############################] 100%") || !strings.Contains(out, "0.3.0 (standard)") {
		t.Fatalf("answer y: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(env["LOAMS_HOME"], "servers", "0.3.0", "standard", "receipt.json")); err != nil {
		t.Error(err)
	}
}

// stack create with no server anywhere offers the install at a terminal;
// "y" installs it and the stack starts on it.
func TestStackCreateOffersInstall(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_RELEASES_URL": rel.URL, "HOME": t.TempDir(), "LOAMS_SECRETS": "file",
		"PATH": "/nonexistent"}
	// This in-process build trusts no key: the offer fails on the signature
	// and says how to go on; the consent question is never reached. No
	// server is server_binary_not_found, whatever was tried (issue 21).
	_, errOut, code := ttyRun(t, env, "y\n", "stack", "create", "--name", "dev", "--port-base", portBase(t))
	if code != 4 || !strings.Contains(errOut, "No Loams server found") || !strings.Contains(errOut, "`loams server install --allow-unsigned` installs a published release") || rel.Requests.Load() != 0 {
		t.Fatalf("exit %d, %d downloads\n%s", code, rel.Requests.Load(), errOut)
	}
}

// Issue 28: with no server, an interactive create asks before it goes to
// the network at all (offline, the release lookup cost seconds of retries
// nobody asked for); "no" is server_binary_not_found with the ways that
// work, and no request was made.
func TestStackCreateAsksBeforeLookingUpARelease(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		asked.Add(1)
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_RELEASES_URL": srv.URL, "HOME": t.TempDir(), "LOAMS_SECRETS": "file",
		"PATH": "/nonexistent"}
	_, errOut, code := ttyRun(t, env, "n\n", "stack", "create", "--name", "dev", "--port-base", portBase(t))
	if code != 4 || !strings.Contains(errOut, "Look up the latest release online?") || !strings.Contains(errOut, "server install --from FILE") || asked.Load() != 0 {
		t.Fatalf("exit %d, %d requests\n%s", code, asked.Load(), errOut)
	}
}
