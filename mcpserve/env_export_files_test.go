package mcpserve

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Issue 11 items 14, 16 and 18 through the real `mcp serve`: env_export
// never writes the key into a committed, executed or read-only file, names
// outside .env* are path_outside_project, and a refusal writes nothing.
func TestEnvExportToolRefusesUnsafeTargets(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the tracked-file rule needs it")
	}
	a := newAgent(t)
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", a.project}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(a.project, ".env.example"), []byte("API_KEY=\n"), 0o644)
	git("add", ".env.example")
	git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "example")
	os.WriteFile(filepath.Join(a.project, ".envrc"), []byte("use node\n"), 0o644)
	os.WriteFile(filepath.Join(a.project, ".env"), []byte("A=1\n"), 0o444)
	if out, isErr := a.call("stack_create", map[string]any{"name": "app", "engines": []string{"qdrant"}}); isErr {
		t.Fatalf("stack_create: %v", out)
	}
	for _, tt := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"merge_into": ".env.example"}, "file_tracked"},
		{map[string]any{"merge_into": ".envrc"}, "forbidden"},
		{map[string]any{"merge_into": ".env"}, "forbidden"}, // 0444
		{map[string]any{"path": "README.md"}, "path_outside_project"},
	} {
		tt.args["name"] = "app"
		out, isErr := a.call("env_export", tt.args)
		if !isErr || out["error"] != tt.code {
			t.Errorf("env_export %v: got %v, want %s", tt.args, out, tt.code)
		}
		for _, p := range []string{".env.loams", ".gitignore", "README.md"} {
			if _, err := os.Stat(filepath.Join(a.project, p)); err == nil {
				t.Fatalf("env_export %v wrote %s", tt.args, p)
			}
		}
	}
	if b, _ := os.ReadFile(filepath.Join(a.project, ".env")); string(b) != "A=1\n" {
		t.Errorf("the read-only .env changed: %q", b)
	}

	// A .gitignore that is a directory: one outcome, nothing written.
	os.Mkdir(filepath.Join(a.project, ".gitignore"), 0o755)
	if out, isErr := a.call("env_export", map[string]any{"name": "app"}); !isErr || out["error"] != "forbidden" {
		t.Errorf("env_export with .gitignore a directory: %v", out)
	}
	if _, err := os.Stat(filepath.Join(a.project, ".env.loams")); err == nil {
		t.Error("the key file was written although the call failed")
	}
}
