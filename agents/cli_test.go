package agents

import (
	"bytes"
	"context"
	"loams.dev/cli/internal/testkit/testbin"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The fakes record every argv (one line each) in $HOME/<name>.log and keep
// a config file the way the real CLIs do, so loams can see what is there.
const fakeClaude = `#!/bin/sh
PATH=/usr/bin:/bin
echo "$*" >> "$HOME/claude.log"
[ "$1" = "--version" ] && { echo "2.0.0 (Claude Code)"; exit 0; }
cfg="$HOME/.claude.json"
case "$1 $2" in
"mcp add") printf '{"numStartups":3,"mcpServers":{"%s":{"type":"stdio","command":"%s","args":["mcp","serve"],"env":{}}}}\n' "$5" "$7" > "$cfg" ;;
"mcp remove") printf '{"numStartups":3,"mcpServers":{}}\n' > "$cfg" ;;
esac
`

const fakeCodex = `#!/bin/sh
PATH=/usr/bin:/bin
echo "$*" >> "$HOME/codex.log"
[ "$1" = "--version" ] && { echo "codex-cli 0.60.0"; exit 0; }
mkdir -p "$HOME/.codex"
case "$1 $2" in
"mcp add") printf '[mcp_servers.%s]\ncommand = "%s"\nargs = ["mcp", "serve"]\n' "$3" "$5" >> "$HOME/.codex/config.toml" ;;
"mcp remove") : > "$HOME/.codex/config.toml" ;;
esac
`

func writeFake(t *testing.T, dir, name, script string) {
	t.Helper()
	if err := testbin.WriteExecutable(filepath.Join(dir, name), []byte(script)); err != nil {
		t.Fatal(err)
	}
}

func calls(t *testing.T, w *world, name string) []string {
	b, _ := os.ReadFile(filepath.Join(w.home, name+".log"))
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func TestClaudeCLIIsPreferred(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	writeFake(t, w.bin, "claude", fakeClaude)
	ctx := context.Background()

	dry, err := Install(ctx, w.env, InstallRequest{Agent: "claude-code", Scope: "user", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "claude mcp add --scope user loams -- " + fakeLoams + " mcp serve"
	if dry.Via != "cli" || len(dry.Commands) != 1 || strings.Join(dry.Commands[0], " ") != want {
		t.Fatalf("dry run: %+v", dry)
	}
	if got := calls(t, w, "claude"); len(got) != 1 || got[0] != "--version" {
		t.Fatalf("dry run ran %q", got)
	}

	if _, err := Install(ctx, w.env, InstallRequest{Agent: "claude-code", Scope: "user"}); err != nil {
		t.Fatal(err)
	}
	got := calls(t, w, "claude")
	if got[len(got)-1] != strings.TrimPrefix(want, "claude ") {
		t.Fatalf("claude saw %q", got)
	}
	// Installed already: no second add (claude refuses duplicates).
	res, err := Install(ctx, w.env, InstallRequest{Agent: "claude-code", Scope: "user"})
	if err != nil || res.Changed || len(res.Commands) != 0 {
		t.Fatalf("re-install: %v %+v", err, res)
	}
	// A stale path (loams moved): the entry's command is edited in place,
	// not removed and re-added, so what claude or the user put in it stays.
	moved := w.env
	moved.Executable = "/usr/local/bin/loams"
	res, err = Install(ctx, moved, InstallRequest{Agent: "claude-code", Scope: "user"})
	if err != nil || len(res.Commands) != 0 || res.Via != "file" || !res.Changed {
		t.Fatalf("moved binary: %v %+v", err, res)
	}
	after := string(mustRead(t, filepath.Join(w.home, ".claude.json")))
	if want := `{"numStartups":3,"mcpServers":{"loams":{"type":"stdio","command":"/usr/local/bin/loams","args":["mcp","serve"],"env":{}}}}` + "\n"; after != want {
		t.Fatalf("moved binary: got %s", after)
	}
	// Nobody else touched ~/.claude.json since: uninstall gives back the
	// original state (there was no file).
	if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: "claude-code"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(w.home, ".claude.json")); !os.IsNotExist(err) {
		t.Fatal("~/.claude.json left behind")
	}
}

func TestClaudeCLIUninstallAfterClaudeWroteMore(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	writeFake(t, w.bin, "claude", fakeClaude)
	ctx := context.Background()
	if _, err := Install(ctx, w.env, InstallRequest{Agent: "claude-code", Scope: "local"}); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(w.home, ".claude.json")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(b, ' '), 0o600) // claude updates its counters
	// local scope lives under projects[dir] in the real file; the fake keeps
	// it flat, so uninstall finds nothing to remove there and says so.
	if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: "claude-code", Scope: "local"}); err != nil {
		t.Fatal(err)
	}
	if got := calls(t, w, "claude"); !strings.Contains(strings.Join(got, "\n"), "mcp add --scope local loams") {
		t.Fatalf("claude saw %q", got)
	}
}

func TestCodexCLI(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	writeFake(t, w.bin, "codex", fakeCodex)
	ctx := context.Background()
	if _, err := Install(ctx, w.env, InstallRequest{Agent: "codex"}); err != nil {
		t.Fatal(err)
	}
	got := calls(t, w, "codex")
	if want := "mcp add loams -- " + fakeLoams + " mcp serve"; got[len(got)-1] != want {
		t.Fatalf("codex saw %q", got)
	}
	cfg := filepath.Join(w.home, ".codex", "config.toml")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append([]byte("model = \"o3\"\n"), b...), 0o600) // the user edits after us
	if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: "codex"}); err != nil {
		t.Fatal(err)
	}
	if got := calls(t, w, "codex"); got[len(got)-1] != "mcp remove loams" {
		t.Fatalf("codex saw %q", got)
	}
}

func TestBrokenCLICountsAsAbsent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	writeFake(t, w.bin, "claude", "#!/bin/sh\nexit 1\n")
	res, err := Install(context.Background(), w.env, InstallRequest{Agent: "claude-code", Scope: "project"})
	if err != nil || res.Via != "file" || res.Path != filepath.Join(w.project, ".mcp.json") {
		t.Fatalf("%v %+v", err, res)
	}
}

func TestPresent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	writeFake(t, w.bin, "codex", fakeCodex)
	os.MkdirAll(filepath.Join(w.home, ".cursor"), 0o755)
	var names []string
	for _, a := range w.env.Present(context.Background()) {
		names = append(names, a.Name)
	}
	if strings.Join(names, ",") != "codex,cursor" {
		t.Fatalf("got %v", names)
	}
}

// init finds every host by its config directory (or its CLI), so a fresh
// machine with all of them installed is offered all twelve.
func TestPresentFindsEveryHost(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, a := range Agents() {
		for _, d := range a.Detect(w.env) {
			os.MkdirAll(d, 0o755)
		}
	}
	var names []string
	for _, a := range w.env.Present(context.Background()) {
		names = append(names, a.Name)
	}
	if len(names) != len(Agents()) {
		t.Fatalf("found %v", names)
	}
	// And one by one: each host's directory finds that host alone.
	for _, a := range Agents() {
		w := newWorld(t)
		os.MkdirAll(a.Detect(w.env)[0], 0o755)
		var got []string
		for _, p := range w.env.Present(context.Background()) {
			got = append(got, p.Name)
		}
		if !slices.Contains(got, a.Name) {
			t.Errorf("%s not found from %s: %v", a.Name, a.Detect(w.env)[0], got)
		}
	}
}

// issue 21: `mcp install --agent claude-code` (the README's line) without
// the claude program edits ~/.claude.json, as for every host with a file;
// the local scope's entry goes under projects.<dir>, where claude reads it,
// and uninstall gives the file back.
func TestClaudeCodeWithoutCLIEditsItsFile(t *testing.T) {
	t.Parallel()
	for _, scope := range []string{"", ScopeLocal} {
		w := newWorld(t)
		cfg := filepath.Join(w.home, ".claude.json")
		before := []byte(`{"numStartups":3,"projects":{}}` + "\n")
		os.WriteFile(cfg, before, 0o600)
		res, err := Install(context.Background(), w.env, InstallRequest{Agent: "claude-code", Scope: scope})
		if err != nil || res.Via != "file" || res.Path != cfg || !res.Changed {
			t.Fatalf("%q: %v %+v", scope, err, res)
		}
		a, _, _ := Lookup("claude-code", "")
		loc := Location{Path: cfg, Format: a.Format, Container: []string{"mcpServers"}}
		if scope == ScopeLocal {
			loc.Container = []string{"projects", w.project, "mcpServers"}
		}
		servers, err := loc.servers()
		if err != nil || !matches(servers["loams"], Entry{Command: []string{fakeLoams, "mcp", "serve"}}) {
			t.Fatalf("%q: entry not where claude reads it: %v\n%s", scope, err, mustRead(t, cfg))
		}
		if _, err := Uninstall(context.Background(), w.env, UninstallRequest{Agent: "claude-code"}); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, cfg); !bytes.Equal(got, before) {
			t.Errorf("%q: uninstall left %s", scope, got)
		}
	}
}
