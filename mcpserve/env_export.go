package mcpserve

import (
	"context"

	"loams.dev/cli/envfile"
	"loams.dev/cli/project"
)

type envExportInput struct {
	Name      string `json:"name,omitempty" jsonschema:"stack name; omit for the default stack"`
	Path      string `json:"path,omitempty" jsonschema:"project file to write, named .env* (default .env.loams)"`
	MergeInto string `json:"merge_into,omitempty" jsonschema:"also merge a block into this file, e.g. .env"`
}

func (s *Server) envExportTool() tool {
	return newTool(toolSpec[envExportInput, envfile.AgentResult]{
		Name:  "env_export",
		Title: "Write .env.loams",
		Description: "Write a stack's URLs and API key to .env.loams in the project (0600, git-ignored), optionally merged into " +
			".env, so the app can connect. Without name under a profile with a remote endpoint, writes that endpoint's settings. Returns names and values with the key redacted: load the file, never ask for the key.",
		Annotations: annotations(writes, notDestructive, idempotent, closedWorld),
		Schema: func(sc *jsonschemaSchema) {
			stackNameSchema(sc, "name")
			sc.Properties["path"].MaxLength = intPtr(255)
			sc.Properties["merge_into"].MaxLength = intPtr(255)
		},
		Run: func(ctx context.Context, in envExportInput) (envfile.AgentResult, error) {
			st, err := s.exportSource(ctx, in.Name) // a stack, or the remote profile (remote.go)
			if err != nil {
				return envfile.AgentResult{}, err
			}
			dir, err := project.Find(s.opts.ProjectDir, s.opts.Getenv, s.opts.Cwd)
			if err != nil {
				return envfile.AgentResult{}, err
			}
			return envfile.ExportForAgent(ctx, st, envfile.AgentRequest{ProjectDir: dir, Path: in.Path, MergeInto: in.MergeInto,
				Version: s.opts.Build.Version, Now: s.opts.Now()})
		},
	})
}
