package commands

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/internal/testkit/testrelease"
)

// oneJSONOrNothing fails unless stderr is empty or exactly one JSON
// document (cli.md: with -o json, nothing else).
func oneJSONOrNothing(t *testing.T, what, stderr string) map[string]any {
	t.Helper()
	if stderr == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(stderr))
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Errorf("%s: stderr is not a JSON document: %v\n%s", what, err, stderr)
		return nil
	}
	var more json.RawMessage
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		t.Errorf("%s: stderr holds more than one JSON document:\n%s", what, stderr)
	}
	return doc
}

// In json mode every warning is part of the JSON: the result's
// `warnings` or the error's details.warnings, never a loose stderr line.
// Commands that warn, fail or run without a server are all run here.
func TestJSONModeStderrIsOneDocument(t *testing.T) {
	t.Parallel()
	rel := testrelease.Serve(t, testrelease.Options{})
	empty := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(empty.Close)
	cli := testbin.Loams(t)
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"app","version":"1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// Each case has a LOAMS_HOME of its own with no server in it (the
	// release has no key: the unsigned rule), so none starts a stack.
	releases := "LOAMS_RELEASES_URL=" + rel.URL
	for _, tc := range []struct {
		name     string
		releases string
		args     []string
		warning  string // a warning the JSON must carry
	}{
		{"unsigned install", releases, []string{"server", "install", "--allow-unsigned", "--allow-download"}, "UNSIGNED"},
		{"unsigned install without consent", releases, []string{"server", "install", "--allow-unsigned"}, "UNSIGNED"},
		{"nothing published", "LOAMS_RELEASES_URL=" + empty.URL + "/", []string{"server", "install"}, ""},
		{"bad variant", releases, []string{"server", "install", "--variant", ".."}, ""},
		{"pkg add of a foreign package", releases, []string{"pkg", "add", "left-pad", "--dry-run", "--project-dir", proj}, "not a Loams package"},
		{"server list", releases, []string{"server", "list"}, ""},
		{"stack list", releases, []string{"stack", "list"}, ""},
		{"stack create without a server", releases, []string{"stack", "create", "--name", "x", "--no-start"}, ""},
		{"status", releases, []string{"status"}, ""},
		{"doctor", releases, []string{"doctor"}, ""},
		{"whoami", releases, []string{"whoami"}, ""},
		{"unknown flag", releases, []string{"stack", "create", "--name", "x", "--port", "1"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := bareEnv(t, "/usr/bin:/bin", tc.releases)
			out, errOut, code := run(t, env, cli, append(tc.args, "-o", "json")...)
			doc := oneJSONOrNothing(t, tc.name, errOut)
			if code == 0 && out == "" || code != 0 && out != "" && doc != nil {
				t.Errorf("exit %d with stdout %q", code, out)
			}
			if tc.warning == "" {
				return
			}
			var warnings []any
			if code == 0 {
				var res map[string]any
				if err := json.Unmarshal([]byte(out), &res); err != nil {
					t.Fatalf("stdout: %v\n%s", err, out)
				}
				warnings, _ = res["warnings"].([]any)
			} else if e, ok := doc["error"].(map[string]any); ok {
				details, _ := e["details"].(map[string]any)
				warnings, _ = details["warnings"].([]any)
			}
			if !bytes.Contains([]byte(strings.Join(toStrings(warnings), "\n")), []byte(tc.warning)) {
				t.Errorf("exit %d: the JSON does not carry the warning %q\nstdout: %s\nstderr: %s", code, tc.warning, out, errOut)
			}
		})
	}
}

func toStrings(xs []any) []string {
	var out []string
	for _, x := range xs {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
