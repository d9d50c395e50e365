package mcpserve

import (
	"context"
	"os"
	"path/filepath"

	"loams.dev/cli/serverbin"
	"loams.dev/cli/stack"
)

type loamsInfoInput struct{}

// ServerInfo is the Loams server binary the stacks would use: where it was
// found, every engine and whether this build has it, and the services a
// running stack of it reported (GetInstance).
type ServerInfo struct {
	Path             string              `json:"path"`
	Source           string              `json:"source"`
	Version          string              `json:"version"`
	Compatibility    string              `json:"compatibility,omitempty"`
	EnginesAvailable []string            `json:"engines_available"`
	Engines          []EngineAvailable   `json:"engines"`
	Services         []serverbin.Service `json:"services,omitempty"`
}

// EngineAvailable is one engine of the registry and whether the server has it.
type EngineAvailable struct {
	Engine    string `json:"engine"`
	Available bool   `json:"available"`
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
	Access         accessInfo  `json:"access"`
}

// accessInfo is the server's access mode and the tools it exposes, so an
// agent that misses a tool can tell the user why.
type accessInfo struct {
	Mode  string   `json:"mode"`
	Tools []string `json:"tools,omitempty"` // omitted when all eight are exposed
}

func (s *Server) loamsInfoTool() tool {
	return newTool(toolSpec[loamsInfoInput, loamsInfo]{
		Name:  "loams_info",
		Title: "Loams CLI info",
		Description: "The loams CLI version, LOAMS_HOME, the Loams server binary found, where keys are stored and the stack count. " +
			"Use it first when a stack tool fails. Local only.",
		Annotations: annotations(readOnly, notDestructive, idempotent, closedWorld),
		Run:         s.loamsInfo,
	})
}

func (s *Server) loamsInfo(ctx context.Context, _ loamsInfoInput) (loamsInfo, error) {
	b := s.opts.Build
	info := loamsInfo{Version: b.Version, Commit: b.Commit, DocsVersion: b.Version, Home: s.opts.Home.Dir, OutputSchema: 1,
		Access: accessInfo{Mode: s.opts.Access.mode(), Tools: s.opts.Access.Tools}}
	info.Stacks = countStacks(s.opts.Home.StacksDir())
	// The server binary: found and asked locally (cached by path, size and
	// mtime), never downloaded; none found is null, not an error.
	if b, c, err := serverbin.NewFinder(s.opts.Home, s.opts.Getenv, "", s.opts.Profile.ServerBinary).Find(ctx); err == nil {
		srv := &stack.Server{Binary: b}
		info.Server = &ServerInfo{Path: b.Path, Source: c.Source, Version: b.Version, EnginesAvailable: srv.EnginesAvailable(),
			Compatibility: serverbin.Skew(s.opts.Build.Version, b.Version, s.opts.Build.IsDev())}
		for _, e := range stack.Engines() {
			info.Server.Engines = append(info.Server.Engines, EngineAvailable{Engine: e.Name, Available: srv.Available(e)})
		}
		if sv, err := s.supervisor(); err == nil {
			if ds, err := sv.Status(ctx, ""); err == nil {
				for _, d := range ds {
					if d.ServerBinary == b.Path && len(d.Services) > 0 {
						info.Server.Services = d.Services
						break
					}
				}
			}
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
