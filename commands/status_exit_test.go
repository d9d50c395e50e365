package commands

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"loams.dev/cli/internal/errs"
)

// keyedServer is a plain-http Loams on loopback: GetInstance for anyone,
// WhoAmI with remoteKey only, and no key at all while refuse is set.
func keyedServer(t *testing.T, status int, refuse *atomic.Bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case status != http.StatusOK:
			w.WriteHeader(status)
			w.Write([]byte(`{"code":"internal","message":"boom"}`))
		case strings.HasSuffix(r.URL.Path, "/GetInstance"):
			w.Write([]byte(`{"serverVersion":"0.0.1","edition":"standard","services":[]}`))
		case r.Header.Get("Authorization") != "Bearer "+remoteKey || refuse.Load():
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"code":"unauthenticated","message":"no key"}`))
		default:
			w.Write([]byte(`{"principal":"u"}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The finding: `loams status` exited 0 on an unreachable endpoint,
// a TLS failure, a 500 and a missing key, and after logout. It prints the
// report in every case and exits with the code of what went wrong: in json
// mode the report (with its error) is the one document on stdout and
// stderr stays empty; in table mode stderr also has the error and hint.
func TestStatusExitsWithWhatWentWrong(t *testing.T) {
	var refuse atomic.Bool
	ok := keyedServer(t, http.StatusOK, &refuse)
	broken := keyedServer(t, http.StatusInternalServerError, &refuse)
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler()) // a certificate nobody trusts
	t.Cleanup(tlsSrv.Close)
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + l.Addr().String()
	l.Close()

	env := map[string]string{"LOAMS_HOME": t.TempDir(), "LOAMS_SECRETS": "file"}
	mustRun(t, env, "", "--profile", "in", "configure", "set", "endpoint", ok.URL)
	mustRun(t, env, remoteKey+"\n", "--profile", "in", "login", "--with-api-key")
	mustRun(t, env, "", "--profile", "out", "configure", "set", "endpoint", ok.URL)
	mustRun(t, env, remoteKey+"\n", "--profile", "out", "login", "--with-api-key")
	mustRun(t, env, "", "--profile", "out", "logout")
	mustRun(t, env, "", "--profile", "never", "configure", "set", "endpoint", ok.URL)

	for _, tt := range []struct {
		name string
		args []string
		code errs.Code // "" for success
	}{
		{"all well", []string{"--profile", "in"}, ""},
		{"unreachable", []string{"--profile", "in", "--endpoint", dead}, errs.EndpointUnreachable},
		{"TLS failure", []string{"--profile", "in", "--endpoint", tlsSrv.URL}, errs.TLSError},
		{"a 500", []string{"--profile", "in", "--endpoint", broken.URL}, errs.ServerError},
		{"never logged in", []string{"--profile", "never"}, errs.Unauthenticated},
		{"after logout", []string{"--profile", "out"}, errs.Unauthenticated},
		{"key refused", []string{"--profile", "in"}, errs.Unauthenticated},
		{"key for another origin", []string{"--profile", "in", "--endpoint", strings.Replace(ok.URL, "127.0.0.1", "localhost", 1)}, errs.Unauthenticated},
	} {
		t.Run(tt.name, func(t *testing.T) {
			refuse.Store(tt.name == "key refused")
			r := runIn(t, env, "", append(append([]string{}, tt.args...), "-o", "json", "status")...)
			var st statusJSON
			if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
				t.Fatalf("stdout is not the report: %v\n%s", err, r.stdout)
			}
			if r.stderr != "" {
				t.Fatalf("json mode wrote to stderr: %s", r.stderr)
			}
			if tt.code == "" {
				if r.code != 0 || st.Error != nil || !st.Reachable {
					t.Fatalf("exit %d: %s", r.code, r.stdout)
				}
				return
			}
			if r.code != tt.code.ExitCode() || st.Error == nil || st.Error.Code != tt.code || st.Error.ExitCode != r.code {
				t.Fatalf("exit %d; want %d (%s):\n%s", r.code, tt.code.ExitCode(), tt.code, r.stdout)
			}
			table := runIn(t, env, "", append(append([]string{}, tt.args...), "status")...)
			if table.code != r.code || !strings.Contains(table.stdout, "endpoint") ||
				!strings.Contains(table.stderr, "error: "+st.Error.Message) || !strings.Contains(table.stderr, "hint: ") {
				t.Fatalf("table mode: exit %d\n%s---\n%s", table.code, table.stdout, table.stderr)
			}
		})
	}
}
