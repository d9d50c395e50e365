package commands

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
)

// completionShell is one real shell set up to load `loams completions X`.
type completionShell struct {
	name  string
	setup func(dir string) string // writes its start-up files, returns its command line
}

func completionShells() []completionShell {
	return []completionShell{
		{"bash", func(dir string) string {
			// No bash-completion package: its helpers are removed, so the
			// script must stand alone (stock macOS bash has none either).
			writeFile(dir, "bashrc", "PS1='ready> '\nunset -f _get_comp_words_by_ref _comp_initialize _init_completion 2>/dev/null\ncomplete -r\nsource "+dir+"/loams.bash\n")
			return "bash --noprofile --rcfile " + dir + "/bashrc -i"
		}},
		{"zsh", func(dir string) string {
			writeFile(dir, ".zshrc", "PS1='ready> '\nautoload -Uz compinit\ncompinit -u -D\nsource "+dir+"/loams.zsh\n")
			return "env ZDOTDIR=" + dir + " zsh -i"
		}},
		{"fish", func(dir string) string {
			return "fish --no-config -i -C 'set -g fish_greeting; function fish_prompt; echo -n \"ready> \"; end; source " + dir + "/loams.fish'"
		}},
	}
}

func writeFile(dir, name, body string) {
	os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
}

// TestCompletionInRealShells types `loams st<TAB>` and `loams stack
// cr<TAB>` into real bash, zsh and fish (driven through tmux, as a person
// would) and reads the screen. A shell that is not installed is skipped.
func TestCompletionInRealShells(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		skipShell(t, "tmux is not installed: it types the TAB into the shells (CI installs it)")
	}
	bin := testbin.Loams(t)
	for _, sh := range completionShells() {
		t.Run(sh.name, func(t *testing.T) {
			if _, err := exec.LookPath(sh.name); err != nil {
				skipShell(t, sh.name+" is not installed")
			}
			t.Parallel()
			dir := t.TempDir()
			binDir := filepath.Join(dir, "bin")
			os.Mkdir(binDir, 0o755)
			if err := os.Symlink(bin, filepath.Join(binDir, "loams")); err != nil {
				t.Fatal(err)
			}
			script, err := exec.Command(bin, "completions", sh.name).Output()
			if err != nil {
				t.Fatal(err)
			}
			writeFile(dir, "loams."+sh.name, string(script))
			shellCmd := sh.setup(dir)
			for _, tc := range []struct{ typed, want string }{
				{"loams st", "stack"},
				{"loams stack cr", "create"},
			} {
				screen := typeTab(t, tmux, dir, shellCmd, tc.typed, tc.want)
				if !strings.Contains(screen, tc.want) {
					t.Errorf("%s: %q<TAB> did not complete to %q; screen:\n%s", sh.name, tc.typed, tc.want, screen)
				}
				if strings.Contains(screen, "not found") || strings.Contains(screen, "rror") {
					t.Errorf("%s: %q<TAB> printed an error; screen:\n%s", sh.name, tc.typed, screen)
				}
			}
		})
	}
}

// skipShell skips, except in CI's shell stage (LOAMS_REQUIRE_SHELLS=1),
// which installed the shells and must not pass by skipping.
func skipShell(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("LOAMS_REQUIRE_SHELLS") != "" {
		t.Fatal(why + " (LOAMS_REQUIRE_SHELLS is set)")
	}
	t.Skip(why)
}

// typeTab starts shellCmd in a private tmux server, waits for its prompt,
// types typed and TAB, and returns the screen once want (or an error)
// shows, or after 10 s. The server is killed before returning.
func typeTab(t *testing.T, tmux, dir, shellCmd, typed, want string) string {
	t.Helper()
	// A socket per call: a server being killed must not meet the next one.
	sock := filepath.Join(dir, "tmux-"+strings.ReplaceAll(typed, " ", "-")+".sock")
	// env -i keeps the shell's environment bare, but the leak check of
	// testbin.Main finds our processes by LOAMS_TEST_RUN: pass it on.
	env := "env -i PATH=" + filepath.Join(dir, "bin") + ":/usr/local/bin:/usr/bin:/bin HOME=" + dir +
		" TERM=xterm LOAMS_HOME=" + filepath.Join(dir, "loams-home") +
		" LOAMS_TEST_RUN=" + os.Getenv("LOAMS_TEST_RUN") + " "
	run := func(args ...string) (string, error) {
		out, err := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		return string(out), err
	}
	if out, err := run("new-session", "-d", "-x", "160", "-y", "40", env+shellCmd); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	// kill-server hangs up the pane, which an interactive fish can outlive:
	// kill the shell itself too.
	pane, _ := run("display-message", "-p", "#{pane_pid}")
	defer func() {
		run("kill-server")
		if pid, err := strconv.Atoi(strings.TrimSpace(pane)); err == nil {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}()
	screen := func() string { s, _ := run("capture-pane", "-p"); return s }
	waitFor := func(what func(string) bool) string {
		deadline := time.Now().Add(10 * time.Second)
		for {
			s := screen()
			if what(s) || time.Now().After(deadline) {
				return s
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if s := waitFor(func(s string) bool { return strings.Contains(s, "ready>") }); !strings.Contains(s, "ready>") {
		t.Fatalf("no prompt from %s:\n%s", shellCmd, s)
	}
	run("send-keys", "-l", typed)
	waitFor(func(s string) bool { return strings.Contains(s, typed) })
	// One TAB completes a unique candidate or the common prefix (`st` →
	// `sta`: stack, standalone); the next two list what is left.
	run("send-keys", "Tab")
	// A bounded pause, not a wait on an event: a first TAB with no common
	// prefix changes nothing on the screen, so there is nothing to wait
	// for; the check below waits for the candidates themselves.
	time.Sleep(300 * time.Millisecond)
	run("send-keys", "Tab", "Tab")
	// Wait for the candidate (or an error) rather than a quiet screen: on
	// a loaded machine the shell may take a while to run loams.
	return waitFor(func(s string) bool {
		return strings.Contains(s, want) || strings.Contains(s, "not found") || strings.Contains(s, "rror")
	})
}

// --output json on the command line wraps the script in an object;
// LOAMS_OUTPUT=json alone (a standing preference for scripts) does not, so
// `source <(loams completions bash)` keeps working in a shell's rc file.
func TestCompletionsOutputJSON(t *testing.T) {
	t.Parallel()
	r := runLoams(t, nil, false, "completions", "bash", "-o", "json")
	var doc struct{ Shell, Script string }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Shell != "bash" || !strings.Contains(doc.Script, "complete -o bashdefault") {
		t.Fatalf("completions bash -o json: %v %q", err, r.stdout)
	}
	r = runLoams(t, nil, false, "-o", "json", "completions", "zsh")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Shell != "zsh" || !strings.Contains(doc.Script, "compdef") {
		t.Fatalf("-o json completions zsh: %v %q", err, r.stdout)
	}
	r = runLoams(t, map[string]string{"LOAMS_OUTPUT": "json"}, false, "completions", "fish")
	if !strings.HasPrefix(r.stdout, "# This is a shell completion script") {
		t.Fatalf("LOAMS_OUTPUT=json changed the fish script: %q", r.stdout[:min(len(r.stdout), 80)])
	}
}

// `loams stack start <TAB>` offers the stacks of LOAMS_HOME (directory
// names, no server asked), and flags after a dash.
func TestStackNameCompletion(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, name := range []string{"dev", "web"} {
		os.MkdirAll(filepath.Join(home, "stacks", name), 0o700)
		writeFile(filepath.Join(home, "stacks", name), "stack.toml", "")
	}
	os.MkdirAll(filepath.Join(home, "stacks", "not-a-stack"), 0o700)
	complete := func(args ...string) string {
		cmd := exec.Command(testbin.Loams(t), append(args, "--generate-shell-completion")...)
		cmd.Env = []string{"LOAMS_HOME=" + home, "HOME=" + home}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return string(out)
	}
	if got := complete("stack", "start"); got != "dev\nweb\n" {
		t.Errorf("stack start <TAB>: %q", got)
	}
	if got := complete("stack", "delete", "--ye"); !strings.HasPrefix(got, "--yes") {
		t.Errorf("stack delete --ye<TAB>: %q", got)
	}
	if got := complete("stack", "list"); strings.Contains(got, "dev") {
		t.Errorf("stack list takes no name but completes %q", got)
	}
}
