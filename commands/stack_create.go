package commands

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

type stackCreateOptions struct {
	stack.CreateOptions
	engines       string
	noStart       bool
	allowDownload bool
	projectDir    string
	from          string // NAME[@SNAP]: a clone
}

func newStackCreateCmd(f *Factory) *cli.Command {
	opts := &stackCreateOptions{}
	return &cli.Command{
		Name:  "create",
		Usage: "Create a stack and start it",
		Description: describe("Allocates ports (the defaults for the first stack, then blocks of 100 from\n"+
			"20000), writes $LOAMS_HOME/stacks/NAME/stack.toml, makes the stack's API key and\n"+
			"starts the server. Engines: "+strings.Join(stack.Names(), ", ")+".",
			"loams stack create dev", "loams stack create search --engines qdrant,es --no-start",
			"loams stack create dev --server-binary ./target/release/loams",
			"loams stack create feature --from dev@before-migration"),
		Flags: []cli.Flag{
			nameOrBoundFlag(&opts.Name),
			&cli.StringFlag{Name: "engines", Usage: "comma-separated engines (default: native,flight-sql,qdrant,es and mcp when the server has it)", Destination: &opts.engines},
			&cli.StringFlag{Name: "storage", Usage: "where hot data lives: dir:PATH or mount:PATH (default: the stack's directory)", Destination: &opts.Storage},
			&cli.IntFlag{Name: "port-base", Usage: "use ports BASE+offset instead of choosing", Destination: &opts.PortBase},
			&cli.StringFlag{Name: "server-binary", Usage: "path of the Loams server binary (recorded in stack.toml)", Destination: &opts.ServerBinary},
			&cli.BoolFlag{Name: "no-start", Usage: "create the stack without starting it", Destination: &opts.noStart},
			&cli.BoolFlag{Name: "allow-download", Usage: "no server found: install the latest one without asking", Destination: &opts.allowDownload},
			&cli.DurationFlag{Name: "wait-timeout", Value: stack.DefaultWait, Usage: "how long to wait for the server to be ready", Destination: &opts.Wait},
			&cli.StringFlag{Name: "from", Usage: "copy the data of stack NAME (consistently, live) or of its snapshot NAME@SNAP; engines, server and storage kind follow it", Destination: &opts.from},
			&cli.StringFlag{Name: "project-dir", Usage: "project to bind to the stack when it has no loams.toml binding (default: the nearest project root)", Destination: &opts.projectDir},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if opts.engines != "" {
				opts.Engines = strings.Split(opts.engines, ",")
			}
			opts.Start = !opts.noStart
			if opts.from != "" {
				for _, fl := range []string{"engines", "storage", "server-binary", "allow-download"} {
					if cmd.IsSet(fl) {
						return errs.New(errs.Usage, "leave --"+fl+" out: a clone has its source's engines, server and storage kind, and ports of its own",
							"--%s cannot be combined with --from", fl)
					}
				}
			}
			return runStackCreate(ctx, f, opts)
		},
	}
}

func runStackCreate(ctx context.Context, f *Factory, opts *stackCreateOptions) error {
	f.useProjectDir(opts.projectDir)
	ws, err := f.Workspace()
	if err != nil {
		return err
	}
	if opts.Name, err = f.namedOrBound(opts.Name, "create"); err != nil {
		return err
	}
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	opts.Project = ws.ProjectRoot()
	var d *stack.Description
	var clone *stack.SnapshotResult
	if opts.from != "" {
		err = f.withProgress("copying "+opts.from+" into "+opts.Name+"…", func() (err error) {
			d, clone, err = sv.Clone(ctx, stack.CloneOptions{Name: opts.Name, From: opts.from, Start: opts.Start, Wait: opts.Wait,
				Project: opts.Project, PortBase: opts.PortBase})
			return err
		})
	} else {
		err = f.createWithServer(ctx, opts.allowDownload, "loams stack create --name "+opts.Name, func() error {
			return f.withProgress("starting "+opts.Name+"…", func() (err error) {
				d, err = sv.Create(ctx, opts.CreateOptions)
				return err
			})
		})
	}
	// A stack whose first start failed still exists: it is adopted all the
	// same (the project's binding, the profile's default), so the hint's
	// `loams stack start` finds it.
	var adopted workspace.Adoption
	if _, lerr := stack.Load(sv.Home, opts.Name); lerr == nil {
		var aerr error
		if adopted, aerr = ws.Adopt(opts.Name); aerr != nil && err == nil {
			err = aerr
		}
	}
	if adopted.Bound != "" && !f.JSON() {
		f.say("bound this project to stack %s in %s", opts.Name, adopted.Bound)
	}
	if err != nil {
		return err
	}
	j := stackJSON{Description: d, Target: workspace.Target{Stack: opts.Name, Source: workspace.FromArgument, Project: opts.Project}, Bound: adopted.Bound}
	if clone != nil {
		j.Clone = &cloneJSON{From: opts.from, Method: clone.Method, SourceDowntimeMS: clone.DowntimeMS}
	}
	return f.printStackJSON(j)
}

// cloneJSON says where a clone's data came from and what copying it cost
// the source (stopped for the copy when it was running).
type cloneJSON struct {
	From             string `json:"from"`
	Method           string `json:"method,omitempty"`
	SourceDowntimeMS int64  `json:"source_downtime_ms"`
}
