package mcpserve

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/BurntSushi/toml"

	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/treecopy/treecopytest"
)

// stack_create {"name", "from"} clones: the same data, file for file and
// link for link, its own ports and key, the source untouched; a missing
// source or snapshot and a bad name get their codes.
func TestStackCreateFromClones(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	if out, isErr := a.call("stack_create", map[string]any{"name": "app", "engines": []string{"qdrant"}, "start": true}); isErr {
		t.Fatalf("create: %v", out)
	}
	t.Cleanup(func() {
		cmd := exec.Command(testbin.Loams(t), "stack", "stop", "copy", "--grace", "2s")
		cmd.Env = append(os.Environ(), "LOAMS_HOME="+a.home, "LOAMS_SECRETS=file")
		_ = cmd.Run()
	})
	src := filepath.Join(a.home, "stacks", "app")
	before := treecopytest.Sums(t, src)
	out, isErr := a.call("stack_create", map[string]any{"name": "copy", "from": "app", "start": true})
	if isErr || out["state"] != "running" {
		t.Fatalf("clone: %v", out)
	}
	dst := filepath.Join(a.home, "stacks", "copy")
	treecopytest.Equal(t, "clone", treecopytest.Sums(t, dst), before)
	treecopytest.Equal(t, "source", treecopytest.Sums(t, src), before)
	var s1, s2 struct {
		Engines []string
		Ports   map[string]int
	}
	_, _ = toml.DecodeFile(filepath.Join(src, "stack.toml"), &s1)
	_, _ = toml.DecodeFile(filepath.Join(dst, "stack.toml"), &s2)
	if len(s2.Engines) != len(s1.Engines) || s1.Ports["qdrant"] == 0 || s1.Ports["native"] == s2.Ports["native"] || s1.Ports["qdrant"] == s2.Ports["qdrant"] {
		t.Errorf("engines or ports: %+v vs %+v", s1, s2)
	}
	k1, _ := os.ReadFile(filepath.Join(src, "secrets", "api_key"))
	k2, _ := os.ReadFile(filepath.Join(dst, "secrets", "api_key"))
	if len(k1) == 0 || string(k1) == string(k2) {
		t.Error("the clone must have its own key")
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"name": "x", "from": "ghost", "start": false}, "stack_not_found"},
		{map[string]any{"name": "x", "from": "app@nope", "start": false}, "snapshot_not_found"},
		{map[string]any{"name": "x", "from": "app", "engines": []string{"es"}, "start": false}, "usage"},
	} {
		if out, isErr := a.call("stack_create", tc.args); !isErr || out["error"] != tc.want {
			t.Errorf("%v: %v, want %s", tc.args, out, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(a.home, "stacks", "x")); err == nil {
		t.Error("a refused clone left a stack")
	}
}
