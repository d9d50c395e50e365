package mcpserve

import (
	"context"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/stack"
)

type loamsInfoInput struct{}

// ServerInfo is the Loams server binary the stacks would use.
type ServerInfo struct {
	Path             string   `json:"path"`
	Version          string   `json:"version"`
	EnginesAvailable []string `json:"engines_available"`
}

type loamsInfo struct {
	Version        string      `json:"version"`
	Commit         string      `json:"commit"`
	DocsVersion    string      `json:"docs_version"`
	Home           string      `json:"home"`
	Server         *ServerInfo `json:"server"`
	SecretsBackend *string     `json:"secrets_backend"`
	Stacks         int         `json:"stacks"`
	OutputSchema   int         `json:"output_schema"`
}

func (s *Server) loamsInfoTool() tool {
	return newTool(toolSpec[loamsInfoInput, loamsInfo]{
		Name:  "loams_info",
		Title: "Loams CLI info",
		Description: "The loams CLI version, LOAMS_HOME, the Loams server binary found, where keys are stored and the stack count. " +
			"Use it first when a stack tool fails. Local only.",
		Annotations: mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: no()},
		Run:         s.loamsInfo,
	})
}

func (s *Server) loamsInfo(ctx context.Context, _ loamsInfoInput) (loamsInfo, error) {
	b := s.opts.Build
	info := loamsInfo{Version: b.Version, Commit: b.Commit, DocsVersion: b.Version, Home: s.opts.Home.Dir, OutputSchema: 1}
	info.Stacks = countStacks(s.opts.Home.StacksDir())
	// The server binary: found and asked locally (cached by path, size and
	// mtime), never downloaded; none found is null, not an error.
	if bin, err := stack.Locate(s.opts.Home, "", s.opts.Profile.ServerBinary, s.opts.Getenv); err == nil {
		if srv, err := stack.Probe(ctx, s.opts.Home, bin); err == nil {
			info.Server = &ServerInfo{Path: srv.Path, Version: srv.Version, EnginesAvailable: srv.EnginesAvailable()}
		}
	}
	if store, err := s.secretStore(ctx); err == nil {
		backend := store.Backend()
		info.SecretsBackend = &backend
	}
	return info, nil
}

// countStacks counts stack directories with a stack.toml; a missing
// stacks directory is zero stacks, not an error.
func countStacks(dir string) int {
	entries, _ := os.ReadDir(dir)
	n := 0
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "stack.toml")); err == nil {
			n++
		}
	}
	return n
}
