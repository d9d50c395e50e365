//go:build unix

package mcpserve

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP face of the permission rule: stack_create never runs the
// server_binary a config.toml others can write names; it answers
// unsafe_permissions, and the script is not run.
func TestStackCreateRefusesAServerFromAWritableConfig(t *testing.T) {
	t.Parallel()
	proj := t.TempDir()
	os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"app"}`), 0o644)
	setup := serverFor(t, inProject(proj), withEnv("LOAMS_SERVER_BINARY=", "PATH=/usr/bin:/bin"))
	marker, script := filepath.Join(t.TempDir(), "ran"), filepath.Join(t.TempDir(), "server")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch '"+marker+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(setup.home, "config.toml")
	if err := os.WriteFile(cfg, []byte("[profile.default]\nserver_binary = \""+script+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(cfg, 0o660)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: setup.command()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := &agent{t: t, project: proj, home: setup.home, session: s}
	out, isErr := a.call("stack_create", map[string]any{"name": "app"})
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the server_binary of a group-writable config.toml was run")
	}
	if !isErr || out["error"] != "unsafe_permissions" {
		t.Fatalf("want unsafe_permissions: %v", out)
	}
}
