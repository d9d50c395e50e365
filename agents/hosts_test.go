package agents

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

// install runs a plain install (with the stack's HTTP endpoint) in w.
func (w *world) install(t *testing.T, agent, scope string) (*Result, error) {
	t.Helper()
	return Install(context.Background(), w.env, InstallRequest{Agent: agent, Scope: scope, Stack: "dev", MCPURL: "http://127.0.0.1:8083/mcp"})
}

// seed writes in as the host's config file and returns its path.
func (w *world) seed(t *testing.T, agent, scope string, in []byte, mode os.FileMode) string {
	t.Helper()
	path := w.configPath(agent, scope)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, in, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// A re-install (after loams moved) changes only the command in an entry
// the user edited: their env, timeout, enabled/tools and comments stay.
func TestReinstallKeepsUserKeys(t *testing.T) {
	t.Parallel()
	for _, c := range fileCases {
		w := newWorld(t)
		dir := c.agent + "-" + c.scope
		path := w.seed(t, c.agent, c.scope, mustRead(t, filepath.Join("testdata", dir, "userkeys.in")), 0o600)
		if _, err := Install(context.Background(), w.env, InstallRequest{Agent: c.agent, Scope: c.scope}); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		got := mustRead(t, path)
		golden(t, dir+"/userkeys.golden", got)
		a, _, _ := Lookup(c.agent, c.scope)
		loc, _ := w.env.location(a, c.scope)
		servers, err := loc.decode(got)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		argv, _, env := storedCommand(servers["loams"])
		if strings.Join(argv, " ") != fakeLoams+" mcp serve" || env["LOAMS_PROFILE"] != "work" {
			t.Errorf("%s: entry now runs %v with env %v", dir, argv, env)
		}
		if c.agent == "opencode" && servers["loams"]["enabled"] != false || c.agent == "copilot-cli" && len(servers["loams"]["tools"].([]any)) != 1 {
			t.Errorf("%s: the user's enabled/tools were reset: %v", dir, servers["loams"])
		}
		// Installing again is a no-op.
		if res, err := Install(context.Background(), w.env, InstallRequest{Agent: c.agent, Scope: c.scope}); err != nil || res.Changed || !bytes.Equal(mustRead(t, path), got) {
			t.Errorf("%s: second install changed the file: %v %+v", dir, err, res)
		}
	}
}

// CRLF line endings and a UTF-8 BOM survive: the result is the LF golden
// with the same transformation applied.
func TestLineEndingsAndBOMKept(t *testing.T) {
	t.Parallel()
	for _, c := range fileCases {
		dir := c.agent + "-" + c.scope
		in := mustRead(t, filepath.Join("testdata", dir, "foreign.in"))
		want := mustRead(t, filepath.Join("testdata", dir, "foreign.golden"))
		crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
		for name, tf := range map[string]func([]byte) []byte{
			"crlf":     crlf,
			"bom":      func(b []byte) []byte { return append([]byte(bom), b...) },
			"bom+crlf": func(b []byte) []byte { return append([]byte(bom), crlf(b)...) },
		} {
			w := newWorld(t)
			path := w.seed(t, c.agent, c.scope, tf(in), 0o600)
			if _, err := w.install(t, c.agent, c.scope); err != nil {
				t.Fatalf("%s %s: %v", dir, name, err)
			}
			if got := mustRead(t, path); !bytes.Equal(got, tf(want)) {
				t.Errorf("%s %s:\n%q\nwant\n%q", dir, name, got, tf(want))
			}
			if _, err := Uninstall(context.Background(), w.env, UninstallRequest{Agent: c.agent}); err != nil {
				t.Fatal(err)
			}
			if got := mustRead(t, path); !bytes.Equal(got, tf(in)) {
				t.Errorf("%s %s: uninstall did not restore the bytes", dir, name)
			}
		}
	}
}

// A symlinked config (a dotfiles repository) is edited through the link;
// a project's link must stay inside the project (TestConfigSymlinkOutOfProjectRefused).
func TestSymlinkedConfigEditedThroughLink(t *testing.T) {
	t.Parallel()
	for _, c := range fileCases {
		w := newWorld(t)
		dir := c.agent + "-" + c.scope
		target := filepath.Join(w.root, "dotfiles", "config")
		if c.scope == ScopeProject {
			target = filepath.Join(w.project, "shared", "config")
		}
		os.MkdirAll(filepath.Dir(target), 0o755)
		os.WriteFile(target, mustRead(t, filepath.Join("testdata", dir, "foreign.in")), 0o600)
		path := w.configPath(c.agent, c.scope)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
		if _, err := w.install(t, c.agent, c.scope); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced", dir)
		}
		if got := mustRead(t, target); !bytes.Equal(got, mustRead(t, filepath.Join("testdata", dir, "foreign.golden"))) {
			t.Errorf("%s: target not edited:\n%s", dir, got)
		}
	}
}

// A read-only file is refused with forbidden and left alone, even for
// root (which the kernel would let write), and so is a file where the
// host would read one of two containers.
func TestReadOnlyAndDuplicateKeysRefused(t *testing.T) {
	t.Parallel()
	for _, c := range fileCases {
		w := newWorld(t)
		dir := c.agent + "-" + c.scope
		in := mustRead(t, filepath.Join("testdata", dir, "foreign.in"))
		path := w.seed(t, c.agent, c.scope, in, 0o444)
		_, err := w.install(t, c.agent, c.scope)
		if !errs.Is(err, errs.Forbidden) || !strings.Contains(errs.As(err).Hint, "chmod u+w") {
			t.Errorf("%s: read-only: got %v", dir, err)
		}
		if fi, _ := os.Stat(path); !bytes.Equal(mustRead(t, path), in) || fi.Mode().Perm() != 0o444 {
			t.Errorf("%s: read-only file replaced", dir)
		}
		if _, err := os.Stat(path + ".loams-backup"); err == nil {
			t.Errorf("%s: backup made for a refused file", dir)
		}
		if c.agent == "codex" {
			continue // TOML itself forbids a duplicate table: broken.in covers it
		}
		a, _, _ := Lookup(c.agent, c.scope)
		dup := []byte(`{"` + a.Container + `": {"x": {"command": "a"}}, "` + a.Container + `": {}}` + "\n")
		os.Chmod(path, 0o600)
		os.WriteFile(path, dup, 0o600)
		if _, err := w.install(t, c.agent, c.scope); !errs.Is(err, errs.ConfigUnparseable) || !strings.Contains(err.Error(), "more than once") {
			t.Errorf("%s: duplicate container: got %v", dir, err)
		}
		if !bytes.Equal(mustRead(t, path), dup) {
			t.Errorf("%s: file with duplicate keys rewritten", dir)
		}
	}
}

// Strict-JSON hosts cannot read comments: such a file is not ours to fix.
func TestStrictHostRefusesComments(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	in := []byte("{\n  // mine\n  \"mcpServers\": {}\n}\n")
	path := w.seed(t, "claude-desktop", "user", in, 0o600)
	if _, err := w.install(t, "claude-desktop", "user"); !errs.Is(err, errs.ConfigUnparseable) || !bytes.Equal(mustRead(t, path), in) {
		t.Fatalf("got %v", err)
	}
}

func TestTemporaryBinaryRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cache := filepath.Join(w.root, "gocache")
	vars := map[string]string{"HOME": w.home, "PATH": w.bin, "GOCACHE": cache}
	w.env.Getenv = func(k string) string { return vars[k] }
	for _, exe := range []string{
		filepath.Join(os.TempDir(), "go-build123", "b001", "exe", "loams"),   // go run
		filepath.Join(w.root, "gotmp", "go-build4567", "b001", "loams.test"), // go test with GOTMPDIR
		filepath.Join(cache, "ab", "loams"),
	} {
		w.env.Executable = exe
		_, err := Install(context.Background(), w.env, InstallRequest{Agent: "cursor"})
		if !errs.Is(err, errs.Usage) || !strings.Contains(errs.As(err).Hint, "go install") || !strings.Contains(errs.As(err).Hint, "--allow-temporary-binary") {
			t.Errorf("%s: got %v", exe, err)
		}
		if _, err := Install(context.Background(), w.env, InstallRequest{Agent: "cursor", AllowTemporaryBinary: true}); err != nil {
			t.Errorf("%s with the flag: %v", exe, err)
		}
	}
}

// issue 21: containers and CI put HOME, GOPATH and GOBIN under /tmp; a
// binary that `go install` or a package manager put there is no temporary
// build, even when those directories lie inside the build cache's parent
// or under a go-build-looking name.
func TestInstalledBinaryUnderTmpIsStable(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir() // under os.TempDir(), as in a container
	home := filepath.Join(tmp, "home")
	gobin := filepath.Join(tmp, "go-build99", "bin") // a GOBIN that looks like a build dir
	for _, c := range []struct {
		name string
		vars map[string]string
		exe  string
	}{
		{"GOPATH default under HOME", map[string]string{"HOME": home}, filepath.Join(home, "go", "bin", "loams")},
		{"GOPATH set", map[string]string{"HOME": home, "GOPATH": filepath.Join(tmp, "gp")}, filepath.Join(tmp, "gp", "bin", "loams")},
		{"GOBIN", map[string]string{"HOME": home, "GOBIN": gobin}, filepath.Join(gobin, "loams")},
		{"plain directory under /tmp", map[string]string{"HOME": home}, filepath.Join(tmp, "tools", "loams")},
		{"~/.local/bin", map[string]string{"HOME": home}, filepath.Join(home, ".local", "bin", "loams")},
		{"Homebrew prefix", map[string]string{"HOME": home, "HOMEBREW_PREFIX": filepath.Join(tmp, "brew")}, filepath.Join(tmp, "brew", "bin", "loams")},
	} {
		e := Env{Getenv: func(k string) string { return c.vars[k] }}
		if err := e.checkStable(c.exe); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// The user edits inside our entry (so the file is no longer only ours);
// uninstall removes our entries and the servers object our first install
// created, which gives back the original bytes.
func TestUninstallAfterUserEditRemovesTheContainerWeCreated(t *testing.T) {
	t.Parallel()
	for _, c := range fileCases {
		if c.agent == "codex" {
			continue
		}
		w := newWorld(t)
		original := []byte("{\n  // mine\n  \"theme\": \"dark\"\n}\n")
		a, _, _ := Lookup(c.agent, c.scope)
		if a.Format == FormatJSON {
			original = []byte("{\n  \"theme\": \"dark\"\n}\n")
		}
		path := w.seed(t, c.agent, c.scope, original, 0o600)
		if _, err := w.install(t, c.agent, c.scope); err != nil {
			t.Fatalf("%s/%s: %v", c.agent, c.scope, err)
		}
		edited := bytes.Replace(mustRead(t, path), []byte(`"loams": {`), []byte(`"loams": {"env": {"A": "1"}, `), 1)
		os.WriteFile(path, edited, 0o600)
		if _, err := Uninstall(context.Background(), w.env, UninstallRequest{Agent: c.agent}); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, path); !bytes.Equal(got, original) {
			t.Errorf("%s/%s: got\n%s", c.agent, c.scope, got)
		}
	}
}
