package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// configure list shows the value in effect for every key, defaults
// included, and where it comes from: flag, env, config or default.
func TestConfigureListShowsDefaultsAndSources(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[profile.default]\ndefault_stack = \"dev\"\nsecrets = \"keyring\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		env  map[string]string
		argv []string
		want map[string][2]string // key → value, source
	}{
		{nil, nil, map[string][2]string{
			"default_stack": {"dev", "config"}, "output": {"table", "default"}, "secrets": {"keyring", "config"}, "server_binary": {"", "default"}}},
		{map[string]string{"LOAMS_SECRETS": "file", "LOAMS_OUTPUT": "text"}, nil, map[string][2]string{
			"secrets": {"file", "env LOAMS_SECRETS"}, "output": {"text", "env LOAMS_OUTPUT"}}},
		{map[string]string{"LOAMS_OUTPUT": "text", "LOAMS_SERVER_BINARY": "/opt/loams-server"}, []string{"-o", "json"}, map[string][2]string{
			"output": {"json", "flag --output"}, "server_binary": {"/opt/loams-server", "env LOAMS_SERVER_BINARY"}}},
	}
	for _, tt := range tests {
		env := map[string]string{"LOAMS_HOME": dir}
		for k, v := range tt.env {
			env[k] = v
		}
		r := runLoams(t, env, false, append(append([]string{}, tt.argv...), "-o", "json", "configure", "list")...)
		var doc struct{ Settings, Sources map[string]string }
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%v: %v %q %s", tt.argv, err, r.stdout, r.stderr)
		}
		for k, w := range tt.want {
			if k == "output" && len(tt.argv) == 0 {
				// -o json is on every run here; the table run checks the default.
				continue
			}
			if doc.Settings[k] != w[0] || doc.Sources[k] != w[1] {
				t.Errorf("env %v argv %v: %s = %q from %q, want %q from %q", tt.env, tt.argv, k, doc.Settings[k], doc.Sources[k], w[0], w[1])
			}
		}
	}
	r := runLoams(t, map[string]string{"LOAMS_HOME": dir}, false, "configure", "list")
	for _, line := range []string{"KEY            VALUE    SOURCE", "output         table    default", "server_binary  -        default"} {
		if !strings.Contains(r.stdout, line+"\n") {
			t.Errorf("table lacks %q:\n%s", line, r.stdout)
		}
	}
}
