package stack_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
	"loams.dev/cli/stack"
)

// A create that fails after making the stack's directory (here: the
// keyring is unavailable) leaves nothing behind, so the name can be
// created again.
func TestFailedCreateRollsBack(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.sv.Secrets = func(context.Context) (secret.Store, error) {
		return nil, errs.New(errs.KeyringUnavailable, "set LOAMS_SECRETS=file", "no keyring")
	}
	if _, err := f.create(t, "dev", false); code(err) != errs.KeyringUnavailable {
		t.Fatalf("want keyring_unavailable, got %v", err)
	}
	if _, err := os.Stat(f.sv.Home.Stack("dev")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stacks/dev must be rolled back: %v", err)
	}
	f.sv.Secrets = func(context.Context) (secret.Store, error) { return f.store, nil }
	if _, err := f.create(t, "dev", false); err != nil {
		t.Fatalf("after a rolled-back create the name is free: %v", err)
	}
}

// Storage an agent chooses must resolve inside the project directory or
// LOAMS_HOME, symlinks followed; relative paths are relative to the
// project, never the process's working directory. People at the CLI may
// choose any path.
func TestAgentStorageStaysInProject(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	proj, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(proj, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "not-yet"), filepath.Join(proj, "dangling")); err != nil {
		t.Fatal(err)
	}
	realProj, _ := filepath.EvalSymlinks(proj)
	realHome, _ := filepath.EvalSymlinks(f.sv.Home.Dir)
	agent := func(name, storage, root string) (*stack.Description, error) {
		return f.sv.Create(context.Background(), stack.CreateOptions{Name: name, ServerBinary: f.bin, PortBase: portBase(t),
			Storage: storage, ConfineStorage: true, StorageRoot: root})
	}
	for _, tc := range []struct{ storage, root string }{
		{"dir:/etc", proj},
		{"mount:/etc", proj},
		{"dir:../elsewhere", proj},
		{"dir:escape/hot", proj},
		{"dir:dangling/hot", proj},
		{"dir:" + outside, proj},
		{"dir:data", ""}, // no project: a relative path has nothing to be relative to
	} {
		if _, err := agent("bad", tc.storage, tc.root); code(err) != errs.PathOutsideProject {
			t.Errorf("agent storage %q: %v, want path_outside_project", tc.storage, err)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "not-yet")); err == nil {
		t.Error("a refused create must not create anything through the dangling link")
	}
	for i, tc := range []struct{ storage, want string }{
		{"dir:.loams-data", filepath.Join(realProj, ".loams-data")},
		{"dir:" + filepath.Join(proj, "sub", "hot"), filepath.Join(realProj, "sub", "hot")},
		{"dir:" + filepath.Join(f.sv.Home.Dir, "elsewhere"), filepath.Join(realHome, "elsewhere")},
	} {
		d, err := agent("ok"+string(rune('a'+i)), tc.storage, proj)
		if err != nil {
			t.Fatalf("agent storage %q: %v", tc.storage, err)
		}
		s, _ := stack.Load(f.sv.Home, d.Name)
		if s.Storage.Path != tc.want {
			t.Errorf("agent storage %q resolved to %s, want %s", tc.storage, s.Storage.Path, tc.want)
		}
	}
	if _, err := f.sv.Create(context.Background(), stack.CreateOptions{Name: "human", ServerBinary: f.bin, PortBase: portBase(t),
		Storage: "dir:" + outside}); err != nil {
		t.Errorf("a person at the CLI may put storage anywhere: %v", err)
	}
}

// A stack directory deleted while its server runs leaves an untracked
// server on the ports; a create with the same --port-base then names the
// engine, the port and the process that holds it.
func TestPortBaseNamesEngineAndHolder(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	base := portBase(t)
	opts := stack.CreateOptions{Name: "first", ServerBinary: f.bin, PortBase: base, Engines: []string{"native"}, Start: true, Wait: 30 * time.Second}
	d, err := f.sv.Create(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	pid := *d.PID
	defer func() { p, _ := os.FindProcess(pid); _ = p.Kill() }()
	if err := os.RemoveAll(f.sv.Home.Stack("first")); err != nil {
		t.Fatal(err)
	}
	opts.Name, opts.Start = "second", false
	_, err = f.sv.Create(context.Background(), opts)
	e, _ := err.(*errs.Error)
	if e == nil || e.Code != errs.PortInUse || e.Details["engine"] != "native" || e.Details["port"] != base+80 {
		t.Fatalf("want port_in_use naming native and port %d, got %v", base+80, err)
	}
	if runtime.GOOS == "linux" && (e.Details["holder_pid"] != pid || !strings.Contains(e.Message, "testserver")) {
		t.Errorf("want the untracked server (pid %d) named: %s %v", pid, e.Message, e.Details)
	}
	// Recorded by another stack: that stack is named.
	opts.Name, opts.PortBase = "third", portBase(t)
	if _, err := f.sv.Create(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	opts.Name = "fourth"
	_, err = f.sv.Create(context.Background(), opts)
	if e, _ := err.(*errs.Error); e == nil || e.Code != errs.PortInUse || e.Details["stack"] != "third" || e.Details["engine"] != "native" {
		t.Fatalf("want port_in_use naming stack third, got %v", err)
	}
}
