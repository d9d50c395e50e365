package envfile

import (
	"context"
	"time"

	"loams.dev/cli/project"
)

// AgentRequest is an export asked for by a coding agent (the env_export MCP
// tool). Its paths are untrusted: they are confined to ProjectDir.
type AgentRequest struct {
	ProjectDir string // resolved by project.Find; never guessed
	Path       string // default .env.loams
	MergeInto  string // optional, e.g. .env
	Version    string
	Now        time.Time
	Force      bool // rewrite a file written for another target
}

// AgentResult is the tool's answer: names and redacted values, never the key.
type AgentResult struct {
	Path             string            `json:"path"`
	MergedInto       string            `json:"merged_into"`
	Written          []string          `json:"written"`
	Values           map[string]string `json:"values"`
	GitignoreUpdated bool              `json:"gitignore_updated"`
	// GitignoreAdded names the files appended to .gitignore by this call.
	GitignoreAdded []string `json:"gitignore_added,omitempty"`
	// ModeTightened names files that were readable by others and now are
	// 0600, as a file holding the key must be.
	ModeTightened []string `json:"mode_tightened,omitempty"`
}

// ExportForAgent writes .env.loams (and merges the block when asked) inside
// the project directory only: every path goes through project.Confine
// before any byte is written, and .env.loams is added to .gitignore.
func ExportForAgent(ctx context.Context, s Stack, req AgentRequest) (AgentResult, error) {
	if req.Path == "" {
		req.Path = ".env.loams"
	}
	write, err := project.Confine(req.ProjectDir, req.Path)
	if err != nil {
		return AgentResult{}, err
	}
	var merge string
	if req.MergeInto != "" {
		if merge, err = project.Confine(req.ProjectDir, req.MergeInto); err != nil {
			return AgentResult{}, err
		}
	}
	res, err := Export(ctx, s, Target{Write: write, Merge: merge, Gitignore: true, Root: req.ProjectDir, Version: req.Version, Now: req.Now, Force: req.Force})
	if err != nil {
		return AgentResult{}, err
	}
	return AgentResult{Path: res.Path, MergedInto: res.MergedInto, Written: res.Written, Values: s.Values(),
		GitignoreUpdated: res.GitignoreUpdated != "", GitignoreAdded: res.Ignored, ModeTightened: res.Tightened}, nil
}
