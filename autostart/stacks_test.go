package autostart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/home"
)

// A stack is managed exactly while the registration file loams wrote for
// it is in place: that decides whether start and stop, from either face,
// go through the service manager.
func TestStacksManagedFollowsTheRegistrationFile(t *testing.T) {
	dir := t.TempDir()
	h := home.Home{Dir: filepath.Join(dir, "loams")}
	if err := os.MkdirAll(h.Stack("dev"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.Stack("dev"), "stack.toml"), []byte("schema = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config")}
	s := &Stacks{Home: func() (home.Home, error) { return h, nil }, Getenv: func(k string) string { return env[k] }, OS: "linux",
		Executable: func() (string, error) { return "/opt/loams/bin/loams", nil }}

	r, err := s.Registration("dev", "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Platform.OS != "linux" || !strings.HasPrefix(r.File, env["XDG_CONFIG_HOME"]) || r.Service.Loams != "/opt/loams/bin/loams" {
		t.Fatalf("registration = %s %s %s", r.Platform.OS, r.File, r.Service.Loams)
	}
	if s.Managed("dev") != nil || s.State("dev") != "off" {
		t.Fatal("dev is managed before its registration file exists")
	}
	if err := Write(r.File, "dev", r.Platform.Bytes(r.Service)); err != nil {
		t.Fatal(err)
	}
	if m := s.Managed("dev"); m == nil || s.State("dev") != "on" || m.File != r.File {
		t.Fatalf("dev is not managed with %s in place", r.File)
	}
	if s.Managed("nosuch") != nil || s.State("nosuch") != "off" {
		t.Fatal("a stack that does not exist is managed")
	}
	if err := Remove(r.File, "dev"); err != nil {
		t.Fatal(err)
	}
	if s.Managed("dev") != nil {
		t.Fatal("dev is still managed after its registration file was removed")
	}
}
