package mcpserve

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Issue 21: the hints of add_package name only arguments the tool has.
// With two ecosystems the refusal says to pass language, and passing it
// picks that ecosystem; the compatibility clients are allowed.
func TestAddPackageLanguageArgument(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	os.WriteFile(filepath.Join(a.project, "go.mod"), []byte("module app\n\ngo 1.26\n"), 0o644)
	out, isErr := a.call("add_package", map[string]any{"package": "qdrant", "dry_run": true})
	if !isErr || out["error"] != "selection_required" {
		t.Fatalf("two ecosystems: %v", out)
	}
	hint, _ := out["hint"].(string)
	if !strings.Contains(hint, `"language"`) || strings.Contains(hint, "--language") {
		t.Fatalf("the hint must name the tool's argument, got %q", hint)
	}
	out, isErr = a.call("add_package", map[string]any{"package": "qdrant", "language": "go", "dry_run": true})
	if isErr || mustJSON(out["command"]) != `["go","get","github.com/qdrant/go-client@v1"]` || out["installed"] != false {
		t.Fatalf("language go: %v", out)
	}
	out, isErr = a.call("add_package", map[string]any{"package": "elasticsearch", "language": "javascript", "dry_run": true})
	if isErr || mustJSON(out["command"]) != `["npm","install","@elastic/elasticsearch@^8.19.2"]` {
		t.Fatalf("language javascript: %v", out)
	}
	if out, isErr := a.call("add_package", map[string]any{"package": "sdk", "language": "cobol"}); !isErr || out["error"] != "usage" ||
		strings.Contains(out["hint"].(string), "--language") {
		t.Fatalf("cobol: %v", out)
	}
}

// The MCP face of pkg add's venv rule: a .venv that links out of the
// project (to /usr, say) is never run by add_package; the result names
// the venv it ignored and why.
func TestAddPackageIgnoresAVenvOutsideTheProject(t *testing.T) {
	t.Parallel()
	a := newAgent(t)
	os.WriteFile(filepath.Join(a.project, "requirements.txt"), []byte("flask\n"), 0o644)
	outside, marker := t.TempDir(), filepath.Join(t.TempDir(), "ran")
	os.MkdirAll(filepath.Join(outside, "bin"), 0o755)
	os.WriteFile(filepath.Join(outside, "pyvenv.cfg"), []byte("home = /usr/bin\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "bin", "python"), []byte("#!/bin/sh\ntouch '"+marker+"'\n"), 0o755)
	if err := os.Symlink(outside, filepath.Join(a.project, ".venv")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	out, isErr := a.call("add_package", map[string]any{"package": "qdrant", "language": "python"})
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the python outside the project was run")
	}
	if !isErr || out["error"] != "ecosystem_unsupported" || !strings.Contains(mustJSON(out), "outside the project") {
		t.Fatalf("want ecosystem_unsupported naming the ignored venv: %v", out)
	}
}

// Issue 28: a package manager that fails is a tool error (isError) with a
// code, a hint for the agent and the output's tail, never a result an
// agent reads as "added".
func TestAddPackageFailureIsAToolError(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in npm is a shell script")
	}
	bin := t.TempDir()
	npm := "#!/bin/sh\necho 'npm ERR! gyp failed to build a native module' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(npm), 0o755); err != nil {
		t.Fatal(err)
	}
	a := newAgent(t, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, isErr := a.call("add_package", map[string]any{"package": "sdk"})
	details, _ := out["details"].(map[string]any)
	if !isErr || out["error"] != "server_error" || !strings.Contains(out["hint"].(string), "call add_package again") ||
		details == nil || !strings.Contains(details["output_tail"].(string), "gyp failed") {
		t.Fatalf("a failed npm install: isError %v %v", isErr, out)
	}
}
