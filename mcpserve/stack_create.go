package mcpserve

import (
	"context"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// stackCreated is the new stack and what it was adopted as: the project
// bound to it in loams.toml (as loams init and loams stack create do), the
// profile's default.
type stackCreated struct {
	*stack.Description
	Target workspace.Target `json:"target"`
	workspace.Adoption
}

type stackCreateInput struct {
	Name    string   `json:"name" jsonschema:"new stack name, e.g. dev"`
	Engines []string `json:"engines,omitempty" jsonschema:"engines besides native; omit for the defaults"`
	Storage string   `json:"storage,omitempty" jsonschema:"dir:PATH or mount:PATH; omit for the stack directory"`
	Start   bool     `json:"start" jsonschema:"start it (waits up to 60 s)"`
	From    string   `json:"from,omitempty" jsonschema:"copy the data of NAME or NAME@SNAP"`
}

func (s *Server) stackCreateTool() tool {
	return newTool(toolSpec[stackCreateInput, stackCreated]{
		Name:  "stack_create",
		Title: "Create a local stack",
		Description: "Create (set up) and start a local stack: a Loams server on 127.0.0.1 (database, search engine). " +
			"Use it when stack_status shows none for the project, then call env_export. Binds an unbound project (loams.toml). At most 8 stacks; needs the server installed.",
		Annotations: annotations(writes, notDestructive, notIdempotent, closedWorld),
		Schema: func(sc *jsonschemaSchema) {
			stackNameSchema(sc, "name")
			sc.Required = []string{"name"}
			engines := sc.Properties["engines"]
			engines.Type, engines.Types = "array", nil
			engines.Items.Enum = enumOf(stack.Names())
			engines.MaxItems = intPtr(len(stack.Names()))
			sc.Properties["storage"].Pattern = "^(dir|mount):.+"
			sc.Properties["start"].Default = []byte("true")
			sc.Properties["from"].Pattern = `^[a-z][a-z0-9-]*(@[A-Za-z0-9-]+)?$`
		},
		Run: func(ctx context.Context, in stackCreateInput) (stackCreated, error) {
			if strings.Contains(in.Storage, "://") {
				return stackCreated{}, errs.New(errs.Usage, "local stacks take dir:PATH or mount:PATH", "object storage is not for local stacks")
			}
			// An agent's storage stays inside the project or LOAMS_HOME;
			// without a project only LOAMS_HOME is allowed.
			root := s.workspace().ProjectRoot()
			sv, err := s.supervisor()
			if err != nil {
				return stackCreated{}, err
			}
			if from, ok := s.workspace().WorktreeFrom(in.Name); ok && in.From == "" && len(in.Engines) == 0 && in.Storage == "" {
				in.From = from // this git worktree's own stack: a copy of the main one
			}
			var d *stack.Description
			if in.From != "" {
				if len(in.Engines) > 0 || in.Storage != "" {
					return stackCreated{}, errs.New(errs.Usage, `leave "engines" and "storage" out with "from"`,
						"a clone has its source's engines and storage kind")
				}
				d, _, err = sv.Clone(ctx, stack.CloneOptions{Name: in.Name, From: in.From, Start: in.Start, Wait: stack.DefaultWait, Project: root})
			} else {
				d, err = sv.Create(ctx, stack.CreateOptions{Name: in.Name, Engines: in.Engines, Storage: in.Storage,
					Start: in.Start, Wait: stack.DefaultWait, ConfineStorage: true, StorageRoot: root, Project: root})
			}
			// server_binary_not_found carries its agent hint (ask the user:
			// tools never download).
			out := stackCreated{Description: d, Target: workspace.Target{Stack: in.Name, Source: workspace.FromArgument, Project: root}}
			if _, lerr := stack.Load(s.opts.Home, in.Name); lerr == nil {
				// Made, even if its first start failed: adopt it as the CLI does.
				adopted, aerr := s.workspace().Adopt(in.Name)
				if err == nil {
					err = aerr
				}
				out.Adoption = adopted
			}
			return out, err
		},
	})
}
