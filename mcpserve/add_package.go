package mcpserve

import (
	"context"

	"loams.dev/cli/pkgadd"
)

type addPackageInput struct {
	Package  string `json:"package" jsonschema:"sdk, live, durable, bullmq, celery, qdrant, elasticsearch, postgres, flight"`
	Language string `json:"language,omitempty" jsonschema:"typescript, python, rust, go (default: detected)"`
	Dev      bool   `json:"dev,omitempty" jsonschema:"as a dev dependency"`
	DryRun   bool   `json:"dry_run,omitempty" jsonschema:"return the command, do not run it"`
}

func (s *Server) addPackageTool() tool {
	return newTool(toolSpec[addPackageInput, *pkgadd.Result]{
		Name:  "add_package",
		Title: "Add a Loams SDK package",
		// tools/list must stay under 6 KiB for the model: every byte here counts.
		Description: "Install a Loams SDK or a snippet's client library as a pinned dependency, with the project's package manager; " +
			"do not edit manifests.",
		Annotations: annotations(writes, destructive, notIdempotent, openWorld),
		Schema: func(sc *jsonschemaSchema) {
			p := sc.Properties["package"]
			p.MinLength, p.MaxLength = intPtr(1), intPtr(100)
			// No enum or limit for language: pkgadd refuses a wrong one and
			// lists the values, and tools/list has no bytes to spare.
		},
		Run: func(ctx context.Context, in addPackageInput) (*pkgadd.Result, error) {
			dir, err := s.workspace().Project()
			if err != nil {
				return nil, err
			}
			res, err := pkgadd.Add(ctx, pkgadd.Request{Packages: []string{in.Package}, Language: in.Language, Dev: in.Dev, DryRun: in.DryRun, ProjectDir: dir,
				Version: s.opts.Build.Version, Getenv: s.opts.Getenv})
			if err == nil {
				// A package manager that exited non-zero is a tool error with
				// its code and hint, never a result the model reads as added.
				err = pkgadd.Failure(res)
			}
			return res, err
		},
	})
}
