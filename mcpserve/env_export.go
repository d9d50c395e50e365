package mcpserve

import (
	"context"

	"loams.dev/cli/envfile"
	"loams.dev/cli/workspace"
)

type envExportInput struct {
	Name      string `json:"name,omitempty" jsonschema:"stack name; omit for the project's"`
	Path      string `json:"path,omitempty" jsonschema:"project file to write, named .env* (default .env.loams)"`
	MergeInto string `json:"merge_into,omitempty" jsonschema:"also merge a block into this file, e.g. .env"`
	Force     bool   `json:"force,omitempty" jsonschema:"re-point a file written for another stack"`
	Profile   string `json:"profile,omitempty" jsonschema:"a remote profile the user named"`
}

// envExportResult is what was written and the target it was written for.
type envExportResult struct {
	envfile.AgentResult
	Target workspace.Target `json:"target"`
}

func (s *Server) envExportTool() tool {
	return newTool(toolSpec[envExportInput, envExportResult]{
		Name:  "env_export",
		Title: "Write .env.loams",
		Description: "Write the project's stack URLs and API key to .env.loams (0600, git-ignored), optionally merged into " +
			".env; under a remote profile, its endpoint's. Returns the key redacted: load the file, never ask for the key.",
		Annotations: annotations(writes, notDestructive, idempotent, closedWorld),
		Schema: func(sc *jsonschemaSchema) {
			stackNameSchema(sc, "name")
			sc.Properties["path"].MaxLength = intPtr(255)
			sc.Properties["merge_into"].MaxLength = intPtr(255)
		},
		Run: func(ctx context.Context, in envExportInput) (envExportResult, error) {
			// The target rule: name, --stack, LOAMS_STACK, loams.toml, …; or the remote profile.
			// In a project with no binding, default_stack and the only stack
			// do not decide what is written into it, nor does loams.toml alone
			// choose a remote profile's key (workspace/consent.go).
			st, target, err := s.workspace().ExportIntoProject(ctx, in.Name, in.Profile)
			if err != nil {
				return envExportResult{}, err
			}
			dir, err := s.workspace().EnvDir() // where the workspace puts .env.loams, as the CLI's
			if err != nil {
				return envExportResult{}, err
			}
			res, err := envfile.ExportForAgent(ctx, st, envfile.AgentRequest{ProjectDir: dir, Path: in.Path, MergeInto: in.MergeInto,
				Version: s.opts.Build.Version, Now: s.opts.Now(), Force: in.Force})
			return envExportResult{AgentResult: res, Target: target}, err
		},
	})
}
