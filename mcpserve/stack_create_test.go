package mcpserve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Storage an agent asks for must resolve inside the project directory or
// LOAMS_HOME; a relative path is the project's, not the server's cwd.
func TestStackCreateStorageStaysInProject(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(a.project, "link")); err != nil {
		t.Fatal(err)
	}
	for _, storage := range []string{"dir:/etc", "mount:/etc", "dir:../up", "dir:link/hot"} {
		if out, isErr := a.call("stack_create", map[string]any{"name": "x", "storage": storage, "start": false}); !isErr || out["error"] != "path_outside_project" {
			t.Errorf("storage %s: %v, want path_outside_project", storage, out)
		}
	}
	if _, err := os.Stat(filepath.Join(a.home, "stacks", "x")); err == nil {
		t.Error("a refused stack_create must leave no stack behind")
	}
	out, isErr := a.call("stack_create", map[string]any{"name": "x", "storage": "dir:.loams-data", "start": false})
	if isErr {
		t.Fatalf("storage inside the project: %v", out)
	}
	spec, _ := os.ReadFile(filepath.Join(a.home, "stacks", "x", "stack.toml"))
	real, _ := filepath.EvalSymlinks(a.project)
	if !strings.Contains(string(spec), `path = "`+filepath.Join(real, ".loams-data")+`"`) {
		t.Errorf("relative storage must resolve against the project %s:\n%s", real, spec)
	}
}
