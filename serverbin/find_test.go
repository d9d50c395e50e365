package serverbin_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/internal/testkit/testbin"
	"loams.dev/cli/serverbin"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}

// place puts a copy of target at path (a hard link: cheap, and a file of
// its own for discovery, which lists one real file only once) and returns path.
func place(t *testing.T, target, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(target, path); err != nil {
		data, rerr := os.ReadFile(target)
		if rerr != nil || testbin.WriteExecutable(path, data) != nil {
			t.Fatal(err)
		}
	}
	return path
}

func script(t *testing.T, path, body string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testbin.WriteExecutable(path, []byte("#!/bin/sh\n"+body+"\n")); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every place of the spec, in the spec's order; the first server wins, a
// program named loams that is not a server is skipped with the reason.
func TestFinderOrder(t *testing.T) {
	t.Parallel()
	srv := testbin.Build(t, "./internal/testkit/testserver")
	root, homeDir, pathDir := t.TempDir(), t.TempDir(), t.TempDir()
	h := home.Home{Dir: t.TempDir()}
	notServer := script(t, filepath.Join(pathDir, "loams"), `echo "usage: some other loams"`)
	pkg := place(t, srv, filepath.Join(root, "usr/local/bin/loams"))
	bundled := place(t, srv, filepath.Join(root, "opt/Loams Desktop/resources/bin/loams"))
	runtimeDir := filepath.Join(homeDir, ".config/Loams Desktop/runtime")
	place(t, srv, filepath.Join(runtimeDir, "0.9.0/loams"))
	newest := place(t, srv, filepath.Join(runtimeDir, "0.10.0/loams"))
	cargo := place(t, srv, filepath.Join(homeDir, ".cargo/bin/loams"))
	env := map[string]string{"HOME": homeDir, "PATH": pathDir}
	f := &serverbin.Finder{Home: h, Getenv: func(k string) string { return env[k] }, Root: root, GOOS: "linux"}

	var got []string
	for _, c := range f.Candidates() {
		got = append(got, c.Source+" "+c.Path)
	}
	want := []string{serverbin.SourcePath + " " + notServer, serverbin.SourcePackage + " " + pkg,
		serverbin.SourceDesktop + " " + bundled, serverbin.SourceDesktop + " " + newest, serverbin.SourceCargo + " " + cargo}
	if !slices.Equal(got, want) {
		t.Fatalf("candidates\n got %q\nwant %q", got, want)
	}
	list := f.List(context.Background())
	if list[0].IsServer || !strings.Contains(list[0].SkippedBecause, "--data-dir") {
		t.Errorf("a loams that is not a server: %+v", list[0])
	}
	if !list[1].Used || list[1].Version != "0.0.1" || list[2].Used || list[2].SkippedBecause == "" {
		t.Errorf("the package server must be used, the rest skipped: %+v", list[1:])
	}
	b, c, err := f.Find(context.Background())
	if err != nil || b.Path != pkg || c.Source != serverbin.SourcePackage {
		t.Fatalf("Find: %v %+v", err, c)
	}

	// The installed server comes before PATH and the packages.
	installed := place(t, srv, filepath.Join(serverbin.ServersDir(h), "0.3.0/standard/loams"))
	if err := os.WriteFile(filepath.Join(serverbin.ServersDir(h), "current"), []byte(installed+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, c, _ := f.Find(context.Background()); b == nil || b.Path != installed || c.Source != serverbin.SourceInstalled {
		t.Errorf("installed server not preferred: %+v", c)
	}

	// Another installed version is listed (for `server remove`), never used.
	older := place(t, srv, filepath.Join(serverbin.ServersDir(h), "0.2.0/standard/loams"))
	for _, p := range []string{installed, older} {
		if err := os.WriteFile(filepath.Join(filepath.Dir(p), "receipt.json"), []byte(`{"version":"`+filepath.Base(filepath.Dir(filepath.Dir(p)))+`"}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	list = f.List(context.Background())
	if len(list) < 2 || !list[0].Used || list[1].Path != older || list[1].Used || !strings.Contains(list[1].SkippedBecause, "not current") || list[1].Version != "0.0.1" {
		t.Errorf("installed, not current: %+v", list[:2])
	}
}

// The running CLI is skipped on PATH; named explicitly it is a usage error.
func TestFinderNeverItself(t *testing.T) {
	t.Parallel()
	srv := testbin.Build(t, "./internal/testkit/testserver")
	self := script(t, filepath.Join(t.TempDir(), "loams"), "exit 99")
	cliDir, srvDir := t.TempDir(), t.TempDir()
	testbin.Symlink(t, self, filepath.Join(cliDir, "loams")) // the CLI first on PATH, through a symlink
	later := place(t, srv, filepath.Join(srvDir, "loams"))
	env := map[string]string{"PATH": cliDir + string(os.PathListSeparator) + srvDir}
	f := &serverbin.Finder{Home: home.Home{Dir: t.TempDir()}, Getenv: func(k string) string { return env[k] }, Self: self, Root: t.TempDir()}
	b, _, err := f.Find(context.Background())
	if err != nil || b.Path != later {
		t.Fatalf("want the stand-in behind the CLI, got %v %v", b, err)
	}
	if l := f.List(context.Background()); !strings.Contains(l[0].SkippedBecause, "loams CLI itself") {
		t.Errorf("list: %+v", l[0])
	}
	env["LOAMS_SERVER_BINARY"] = filepath.Join(cliDir, "loams")
	_, _, err = f.Find(context.Background())
	if !errs.Is(err, errs.Usage) || !strings.Contains(err.Error(), "is the loams CLI") {
		t.Fatalf("explicit path to the CLI: %v", err)
	}
}

// Nothing found: server_binary_not_found whose hint names the ways that
// work while no release is published, and an agent is told to ask.
func TestFinderNotFound(t *testing.T) {
	t.Parallel()
	f := &serverbin.Finder{Home: home.Home{Dir: t.TempDir()}, Getenv: func(k string) string { return "" }, Root: t.TempDir()}
	_, _, err := f.Find(context.Background())
	e := errs.As(err)
	if e.Code != errs.ServerBinaryNotFound || !strings.Contains(e.Hint, "/usr/bin/loams") || !strings.Contains(e.Hint, "LOAMS_SERVER_BINARY") ||
		!strings.Contains(e.Hint, "server install --from") || !strings.HasPrefix(e.HintFor(true), "ask the user to run `") {
		t.Fatalf("%+v", e)
	}
}

// The probe is asked once per binary, again when the binary changes.
func TestProbeCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	bin := script(t, filepath.Join(dir, "loams"), `echo x >> `+count+`
case "$1" in --version) echo "loams 0.4.2";; dev) printf '      --data-dir <DIR>\n          Data [default: .loams]\n\n      --live-listen <ADDR>\n          Live [default: 127.0.0.1:7710]\n';; esac`)
	h := home.Home{Dir: t.TempDir()}
	for range 3 {
		b, err := serverbin.Probe(context.Background(), h, bin)
		if err != nil || !b.IsServer || b.Version != "0.4.2" || b.Defaults["--live-listen"] != "127.0.0.1:7710" || !b.Values["--data-dir"] {
			t.Fatalf("probe: %v %+v", err, b)
		}
	}
	if n := lines(t, count); n != 2 {
		t.Fatalf("binary asked %d times, want 2 (dev --help, --version) for three probes", n)
	}
	script(t, bin+".new", `echo x >> `+count+`; exit 1`)
	if err := os.Rename(bin+".new", bin); err != nil {
		t.Fatal(err)
	}
	b, _ := serverbin.Probe(context.Background(), h, bin)
	if b.IsServer || lines(t, count) != 3 {
		t.Fatalf("a changed binary must be asked again: %+v", b)
	}
}

func lines(t *testing.T, path string) int {
	data, _ := os.ReadFile(path)
	return strings.Count(string(data), "\n")
}
