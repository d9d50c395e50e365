// Package publish builds what the release publishes where agents look: an
// .mcpb bundle per platform (Claude Desktop installs it in one click) and
// the server.json the MCP registry lists, validated against the registry's
// schema (vendored: server.schema.json, 2025-12-11).
package publish

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Platform is one release target.
type Platform struct{ OS, Arch string }

func (p Platform) exe() string {
	if p.OS == "windows" {
		return "loams.exe"
	}
	return "loams"
}

// mcpbPlatform is the manifest's name for an OS (MCPB uses Node's names).
func (p Platform) mcpbPlatform() string {
	if p.OS == "windows" {
		return "win32"
	}
	return p.OS
}

// BundleName is the release asset's file name.
func BundleName(version string, p Platform) string {
	return fmt.Sprintf("loams_%s_%s_%s.mcpb", version, p.OS, p.Arch)
}

// Description is loams's one line for the registry and the bundle (the
// registry allows 100 characters).
const Description = "Local Loams stacks, .env.loams and tested SDK snippets for coding agents"

// Manifest is an MCPB manifest (manifest_version 0.3), the fields we set.
type Manifest struct {
	ManifestVersion string         `json:"manifest_version"`
	Name            string         `json:"name"`
	DisplayName     string         `json:"display_name"`
	Version         string         `json:"version"`
	Description     string         `json:"description"`
	Author          map[string]any `json:"author"`
	Homepage        string         `json:"homepage"`
	License         string         `json:"license"`
	Server          ManifestServer `json:"server"`
	Compatibility   map[string]any `json:"compatibility"`
}

// ManifestServer says how the host starts the server inside the bundle.
type ManifestServer struct {
	Type       string    `json:"type"`
	EntryPoint string    `json:"entry_point"`
	MCPConfig  MCPConfig `json:"mcp_config"`
}

// MCPConfig is the command line, ${__dirname} being the unpacked bundle.
type MCPConfig struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// NewManifest describes the bundle for one platform.
func NewManifest(version string, p Platform) Manifest {
	entry := "server/" + p.exe()
	return Manifest{
		ManifestVersion: "0.3", Name: "loams", DisplayName: "Loams", Version: version,
		Description: Description,
		Author:      map[string]any{"name": "Ostrium Labs", "url": "https://loams.dev"},
		Homepage:    "https://loams.dev", License: "Apache-2.0",
		Server: ManifestServer{Type: "binary", EntryPoint: entry,
			MCPConfig: MCPConfig{Command: "${__dirname}/" + entry, Args: []string{"mcp", "serve"}}},
		Compatibility: map[string]any{"platforms": []string{p.mcpbPlatform()}},
	}
}

// zipTime makes bundles reproducible: the same binary gives the same bytes.
var zipTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// BuildBundle writes the .mcpb for binary into dir and returns its path.
func BuildBundle(dir, binary, version string, p Platform) (string, error) {
	bin, err := os.ReadFile(binary)
	if err != nil {
		return "", err
	}
	manifest, _ := json.MarshalIndent(NewManifest(version, p), "", "  ")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct {
		name string
		mode os.FileMode
		data []byte
	}{{"manifest.json", 0o644, append(manifest, '\n')}, {"server/" + p.exe(), 0o755, bin}} {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: zipTime}
		h.SetMode(f.mode) // the binary stays executable when unpacked
		w, err := zw.CreateHeader(h)
		if err != nil {
			return "", err
		}
		if _, err := io.Copy(w, bytes.NewReader(f.data)); err != nil {
			return "", err
		}
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	out := filepath.Join(dir, BundleName(version, p))
	return out, os.WriteFile(out, buf.Bytes(), 0o644)
}
