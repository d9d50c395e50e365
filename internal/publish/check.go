package publish

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CheckBundle unpacks an .mcpb into a temporary directory, checks its
// manifest, and starts the binary inside as the manifest says (command with
// ${__dirname} resolved, args) to list its tools, as Claude Desktop would.
// env is the server's environment (tests point LOAMS_HOME elsewhere).
func CheckBundle(ctx context.Context, bundle string, env []string) (Manifest, []string, error) {
	var m Manifest
	dir, err := os.MkdirTemp("", "loams-mcpb-")
	if err != nil {
		return m, nil, err
	}
	defer os.RemoveAll(dir)
	if err := unzip(bundle, dir); err != nil {
		return m, nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return m, nil, fmt.Errorf("%s has no manifest.json", bundle)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, nil, fmt.Errorf("manifest.json: %v", err)
	}
	switch {
	case m.ManifestVersion != "0.3":
		return m, nil, fmt.Errorf("manifest_version %q, want 0.3", m.ManifestVersion)
	case m.Server.Type != "binary":
		return m, nil, fmt.Errorf("server.type %q, want binary", m.Server.Type)
	case strings.Join(m.Server.MCPConfig.Args, " ") != "mcp serve":
		return m, nil, fmt.Errorf("mcp_config runs %v, want mcp serve", m.Server.MCPConfig.Args)
	}
	command := strings.ReplaceAll(m.Server.MCPConfig.Command, "${__dirname}", dir)
	if _, err := os.Stat(filepath.Join(dir, m.Server.EntryPoint)); err != nil {
		return m, nil, fmt.Errorf("entry_point %s is not in the bundle", m.Server.EntryPoint)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.Command(command, m.Server.MCPConfig.Args...)
	cmd.Env = env
	client := mcp.NewClient(&mcp.Implementation{Name: "release-check", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		return m, nil, fmt.Errorf("the bundled binary did not start an MCP server: %v", err)
	}
	defer session.Close()
	res, err := session.ListTools(ctx, nil)
	if err != nil {
		return m, nil, fmt.Errorf("tools/list: %v", err)
	}
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return m, names, nil
}

// unzip extracts a bundle, refusing entries that would land outside dir.
func unzip(path, dir string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	for _, f := range zr.File {
		dst := filepath.Join(dir, f.Name)
		if !strings.HasPrefix(dst, filepath.Clean(dir)+string(os.PathSeparator)) {
			return fmt.Errorf("%s: entry %q escapes the bundle", path, f.Name)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		r, err := f.Open()
		if err != nil {
			return err
		}
		w, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, f.Mode().Perm())
		if err != nil {
			r.Close()
			return err
		}
		_, err = io.Copy(w, r)
		r.Close()
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
