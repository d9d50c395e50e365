package agents

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A user's Codex config whose multi-line strings hold lines that look like
// loams's table: install appends the real table and edits nothing inside
// the strings, uninstall (after an edit of the user's) leaves every other
// byte as it was. The headers are those
// internal/tomlkey's scanner finds, the ones TOML sees.
func TestCodexFakeHeaderInMultilineString(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	original := mustRead(t, filepath.Join("testdata", "codex-user", "multiline.in"))
	path := w.seed(t, "codex", "user", original, 0o600)
	if _, err := Install(ctx, w.env, InstallRequest{Agent: "codex", Scope: "user"}); err != nil {
		t.Fatal(err)
	}
	installed := mustRead(t, path)
	golden(t, "codex-user/multiline.golden", installed)
	if !bytes.HasPrefix(installed, original) {
		t.Errorf("install changed the user's bytes:\n%s", installed)
	}
	a, _, _ := Lookup("codex", "user")
	loc, _ := w.env.location(a, "user")
	servers, err := loc.decode(installed)
	if err != nil {
		t.Fatal(err)
	}
	if argv, _, env := storedCommand(servers["loams"]); len(argv) == 0 || argv[0] != fakeLoams || len(env) != 0 {
		t.Errorf("entry runs %v with env %v", argv, env)
	}
	// The user edits the file after us, so uninstall removes our table by
	// lines rather than restoring the backup.
	later := "\n[history]\npersistence = \"none\"\n"
	if err := os.WriteFile(path, append(installed, later...), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: "codex", Scope: "user"}); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); string(got) != string(original)+later {
		t.Errorf("uninstall changed the user's bytes:\n%s", got)
	}
}

// An entry of ours whose own multi-line string holds `command = …` and a
// header: only the real command line changes, and removing the entry takes
// the whole table (string included) and nothing else.
func TestCodexOurTableWithMultilineString(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	original := mustRead(t, filepath.Join("testdata", "codex-user", "multiline-ours.in"))
	path := w.seed(t, "codex", "user", original, 0o600)
	if _, err := Install(ctx, w.env, InstallRequest{Agent: "codex", Scope: "user"}); err != nil {
		t.Fatal(err)
	}
	installed := mustRead(t, path)
	golden(t, "codex-user/multiline-ours.golden", installed)
	if want := bytes.Replace(original, []byte(`command = "/old/path/loams"`), []byte(`command = "`+fakeLoams+`"`), 1); !bytes.Equal(installed, want) {
		t.Errorf("install changed more than the command line:\n%s", installed)
	}
	// The file is as install left it: uninstall gives back the original.
	if _, err := Uninstall(ctx, w.env, UninstallRequest{Agent: "codex", Scope: "user"}); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); !bytes.Equal(got, original) {
		t.Errorf("uninstall did not give back the original:\n%s", got)
	}
	// Removing the entry from the user's file takes the whole table, its
	// string included, and nothing else.
	got, found, err := tomlRemove(original, "mcp_servers", "loams")
	want := []byte("# an entry of ours, edited by the user\n\n[history]\npersistence = \"none\"\n")
	if err != nil || !found || !bytes.Equal(got, want) {
		t.Errorf("remove: %v %v\n%s", found, err, got)
	}
}

// A table after ours named with a TOML 1.1 escape is the user's own, as the
// decoder reads it: setting our keys and removing our table leave it whole
// (the scanner once missed its header and took it for more of ours). A
// sub-table of ours the lines cannot take with the table is refused, not
// left behind as a half entry.
func TestCodexEditsStayInOurTable(t *testing.T) {
	t.Parallel()
	doc := []byte("[mcp_servers.loams]\ncommand = \"/old\"\n\n[\"\\e\"]\ncommand = \"keep\"\nargs = [\"x\"]\n")
	set, err := tomlSet(doc, "mcp_servers", "loams", Object{{"command", "/new"}, {"args", []string{"mcp", "serve"}}}, []string{"command", "args"})
	want := "[mcp_servers.loams]\ncommand = \"/new\"\nargs = [\"mcp\", \"serve\"]\n\n[\"\\e\"]\ncommand = \"keep\"\nargs = [\"x\"]\n"
	if err != nil || string(set) != want {
		t.Errorf("set: %v\n%q", err, set)
	}
	got, found, err := tomlRemove(doc, "mcp_servers", "loams")
	if err != nil || !found || string(got) != "\n[\"\\e\"]\ncommand = \"keep\"\nargs = [\"x\"]\n" {
		t.Errorf("remove: %v %v\n%q", found, err, got)
	}
	split := []byte("[mcp_servers.loams]\ncommand = \"/old\"\n[other]\n[mcp_servers.loams.env]\nA = \"1\"\n")
	if got, _, err := tomlRemove(split, "mcp_servers", "loams"); err == nil {
		t.Errorf("a split entry was removed by halves:\n%q", got)
	}
}
