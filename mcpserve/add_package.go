package mcpserve

import (
	"context"

	"loams.dev/cli/pkgadd"
	"loams.dev/cli/project"
)

type addPackageInput struct {
	Package string `json:"package" jsonschema:"sdk, live, durable, bullmq, celery or a registry name such as @loams/client"`
	Dev     bool   `json:"dev,omitempty" jsonschema:"as a dev dependency"`
	DryRun  bool   `json:"dry_run,omitempty" jsonschema:"return the command, do not run it"`
}

func (s *Server) addPackageTool() tool {
	return newTool(toolSpec[addPackageInput, *pkgadd.Result]{
		Name:  "add_package",
		Title: "Add a Loams SDK package",
		Description: "Add a Loams SDK package with the project's own package manager (npm, pnpm, yarn, bun, uv, poetry, cargo, go), " +
			"pinned to this CLI's version. Use it instead of editing manifests. Loams packages only; 5-minute limit.",
		Annotations: annotations(writes, destructive, notIdempotent, openWorld),
		Schema: func(sc *jsonschemaSchema) {
			p := sc.Properties["package"]
			p.MinLength, p.MaxLength = intPtr(1), intPtr(100)
		},
		Run: func(ctx context.Context, in addPackageInput) (*pkgadd.Result, error) {
			dir, err := project.Find(s.opts.ProjectDir, s.opts.Getenv, s.opts.Cwd)
			if err != nil {
				return nil, err
			}
			return pkgadd.Add(ctx, pkgadd.Request{Packages: []string{in.Package}, Dev: in.Dev, DryRun: in.DryRun, ProjectDir: dir,
				Version: s.opts.Build.Version, Getenv: s.opts.Getenv})
		},
	})
}
