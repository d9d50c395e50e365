package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/testkit/testbin"
)

// TestMain fails the run when a process a test started outlives it, or
// when a test bound this repository to a stack (a command run here
// without Factory.Dir or a directory of its own writes ../loams.toml).
func TestMain(m *testing.M) {
	_, before := os.Stat("../loams.toml")
	code := testbin.Main(m)
	if _, after := os.Stat("../loams.toml"); before != nil && after == nil {
		fmt.Fprintln(os.Stderr, "a test wrote loams.toml into this repository; give the command a directory of its own")
		os.Remove("../loams.toml")
		code = 1
	}
	os.Exit(code)
}

func TestVersionFromLdflags(t *testing.T) {
	bin := testbin.Build(t, "./cmd/loams",
		"-X loams.dev/cli/internal/buildinfo.version=0.3.1",
		"-X loams.dev/cli/internal/buildinfo.commit=abc1234def",
		"-X loams.dev/cli/internal/buildinfo.date=2026-12-02T10:00:00Z")
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "loams 0.3.1 (abc1234, 2026-12-02, ") {
		t.Fatalf("got %q", out)
	}
	out, _ = exec.Command(bin, "version", "-o", "json").Output()
	var v struct{ Version, Commit, BuiltAt string }
	json.Unmarshal(out, &v)
	if v.Version != "0.3.1" || v.Commit != "abc1234def" {
		t.Fatalf("json %s", out)
	}
}

// TestCompletionProtocol asks the binary for candidates the way every
// generated script does (urfave's --generate-shell-completion).
func TestCompletionProtocol(t *testing.T) {
	bin := testbin.Loams(t)
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--generate-shell-completion"}, []string{"configure", "version", "completions"}},
		{[]string{"configure", "--generate-shell-completion"}, []string{"get", "set", "unset", "list"}},
		{[]string{"completions", "--generate-shell-completion"}, []string{"bash", "zsh", "fish", "powershell"}},
		{[]string{"--" + "out", "--generate-shell-completion"}, []string{"--output"}},
	}
	for _, tt := range tests {
		out, err := exec.Command(bin, tt.args...).Output()
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%v: %q missing from\n%s", tt.args, w, out)
			}
		}
	}
}

// TestBashCompletionScript sources the generated script in a bare bash
// (no rc files, no bash-completion package) and completes `loams co<TAB>`
// and `loams configure s<TAB>`; TestCompletionInRealShells types them.
func TestBashCompletionScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	bin := testbin.Loams(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "loams")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	script, err := exec.Command(bin, "completions", "bash").Output()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "loams.bash"), script, 0o644)
	harness := `
source ./loams.bash
complete_line() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_TYPE=9; _loams_complete; echo "${COMPREPLY[*]}"; }
complete_line loams co
complete_line loams configure s
`
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", harness)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin", "HOME=" + dir, "LOAMS_HOME=" + filepath.Join(dir, "home")}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] != "configure completions" || lines[1] != "set" {
		t.Fatalf("completions %q", lines)
	}
	for _, shell := range []string{"zsh", "fish", "powershell"} {
		out, err := exec.Command(bin, "completions", shell).Output()
		if err != nil || !strings.Contains(string(out), "generate-shell-completion") && !strings.Contains(string(out), "complete") {
			t.Errorf("%s script: %v %q", shell, err, out[:min(len(out), 200)])
		}
	}
}
