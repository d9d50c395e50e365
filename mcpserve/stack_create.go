package mcpserve

import (
	"context"
	"errors"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/project"
	"loams.dev/cli/stack"
)

type stackCreateInput struct {
	Name    string   `json:"name" jsonschema:"new stack name, e.g. dev"`
	Engines []string `json:"engines,omitempty" jsonschema:"engines besides native; omit for the defaults"`
	Storage string   `json:"storage,omitempty" jsonschema:"dir:PATH or mount:PATH; omit for the stack directory"`
	Start   bool     `json:"start" jsonschema:"start it (waits up to 60 s)"`
}

func (s *Server) stackCreateTool() tool {
	return newTool(toolSpec[stackCreateInput, *stack.Description]{
		Name:  "stack_create",
		Title: "Create a local stack",
		Description: "Create and start a local stack (a Loams server on 127.0.0.1, local storage). Use it when stack_status " +
			"shows none for the project, then call env_export. At most 8 stacks; needs the server binary installed.",
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
		},
		Run: func(ctx context.Context, in stackCreateInput) (*stack.Description, error) {
			if strings.Contains(in.Storage, "://") {
				return nil, errs.New(errs.Usage, "local stacks take dir:PATH or mount:PATH", "object storage is not for local stacks")
			}
			// An agent's storage stays inside the project or LOAMS_HOME;
			// without a project only LOAMS_HOME is allowed.
			root, _ := project.Find(s.opts.ProjectDir, s.opts.Getenv, s.opts.Cwd)
			d, err := s.supervisor().Create(ctx, stack.CreateOptions{Name: in.Name, Engines: in.Engines, Storage: in.Storage,
				Start: in.Start, Wait: stack.DefaultWait, ConfineStorage: true, StorageRoot: root})
			if e := (*errs.Error)(nil); errors.As(err, &e) && e.Code == errs.ServerBinaryNotFound && e.Details["path"] == nil {
				// Tools never download: the user installs the server.
				e.Hint = "ask the user to run `loams server install` in a terminal (tools never download), then call stack_create again"
				return nil, e
			}
			return d, err
		},
	})
}
