package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/iostreams"
)

func agentFactory(t *testing.T, env map[string]string) (*Factory, *strings.Builder) {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	f := &Factory{IO: ios, Dir: t.TempDir(), Getenv: func(k string) string { return env[k] }, Now: time.Now,
		Executable: func() (string, error) { return "/usr/local/bin/loams", nil }}
	_ = out
	sb := &strings.Builder{}
	ios.Out = sb
	return f, sb
}

func TestMCPInstallCursorProjectDryRunThenInstall(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	env := map[string]string{"HOME": t.TempDir(), "LOAMS_HOME": t.TempDir(), "PATH": t.TempDir()}
	f, out := agentFactory(t, env)
	f.agentsProjectDir = proj
	ctx := context.Background()
	if err := runMCPInstall(ctx, f, &mcpInstallOptions{agent: "cursor", scope: "project", dryRun: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `+      "command": "/usr/local/bin/loams",`) {
		t.Fatalf("dry run printed %q", out.String())
	}
	cfg := filepath.Join(proj, ".cursor", "mcp.json")
	if _, err := os.Stat(cfg); err == nil {
		t.Fatal("dry run wrote the file")
	}
	f.Globals.Output = "json"
	out.Reset()
	if err := runMCPInstall(ctx, f, &mcpInstallOptions{agent: "cursor", scope: "project"}); err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out.String()), &res); err != nil || res["changed"] != true || res["path"] != cfg {
		t.Fatalf("%v %s", err, out.String())
	}
	out.Reset()
	if err := runMCPUninstall(ctx, f, &mcpUninstallOptions{agent: "cursor"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg); !os.IsNotExist(err) {
		t.Fatal("uninstall left the file we created")
	}
}
