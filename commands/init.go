package commands

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/agents"
	"loams.dev/cli/envfile"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/project"
	"loams.dev/cli/stack"
)

type initOptions struct {
	yes, noAgent, noEnv bool
	allowDownload       bool
	stack, projectDir   string
	serverBinary        string
	engines, agents     []string
	wait                time.Duration
	portBase            int
}

func newInitCmd(f *Factory) *cli.Command {
	opts := &initOptions{}
	return &cli.Command{
		Name:  "init",
		Usage: "Set up loams for this project: profile, a running stack, .env.loams, agents",
		Description: describe("Finds or creates the profile, creates and starts the stack dev (or reuses it),\n"+
			"writes .env.loams in the project directory, and offers `loams mcp install` for\n"+
			"every coding agent it finds (claude and codex on PATH, ~/.cursor, ~/.codeium/windsurf).\n"+
			"It asks before each step on a terminal; --yes answers yes for scripts. Running it\n"+
			"again changes nothing.",
			"loams init", "loams init --yes", "loams init --yes --no-agent --output json",
			"loams init --stack search --engines native,qdrant --agent codex"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "answer yes to every question", Destination: &opts.yes},
			&cli.StringFlag{Name: "stack", Value: "dev", Usage: "stack to create or reuse", Destination: &opts.stack},
			&cli.StringFlag{Name: "engines", Usage: "engines of a new stack (default: the stack create default)"},
			&cli.StringSliceFlag{Name: "agent", Usage: "set up only this agent (repeatable): " + strings.Join(agents.Names(), ", ")},
			&cli.BoolFlag{Name: "no-agent", Usage: "do not set up any coding agent", Destination: &opts.noAgent},
			&cli.BoolFlag{Name: "no-env", Usage: "do not write .env.loams", Destination: &opts.noEnv},
			&cli.StringFlag{Name: "project-dir", Usage: "project directory (default: the nearest project root; none: no .env.loams)", Destination: &opts.projectDir},
			&cli.StringFlag{Name: "server-binary", Usage: "path of the Loams server binary for a new stack (recorded in its stack.toml)", Destination: &opts.serverBinary},
			&cli.IntFlag{Name: "port-base", Usage: "ports of a new stack: BASE+offset (default: loams chooses)", Destination: &opts.portBase},
			&cli.DurationFlag{Name: "wait-timeout", Value: stack.DefaultWait, Usage: "how long to wait for the server to be ready", Destination: &opts.wait},
			&cli.BoolFlag{Name: "allow-download", Usage: "no server found: install the latest one without asking", Destination: &opts.allowDownload},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return errs.New(errs.Usage, "run `loams init --help`", "init takes no arguments, got %q", cmd.Args().First())
			}
			if e := cmd.String("engines"); e != "" {
				opts.engines = strings.Split(e, ",")
			}
			opts.agents = cmd.StringSlice("agent")
			return runInit(ctx, f, opts)
		},
	}
}

// initResult is `loams init --output json`. Changes lists what this run
// did; a second run reports none.
type initResult struct {
	Profile string      `json:"profile"`
	Stack   initStack   `json:"stack"`
	EnvFile *string     `json:"env_file"`
	Agents  []initAgent `json:"agents"`
	Changes []string    `json:"changes"`
}

type initStack struct {
	*stack.Description
	Created bool `json:"created"`
	Started bool `json:"started"`
}

type initAgent struct {
	Agent   string       `json:"agent"`
	Status  string       `json:"status"` // installed | already_installed | declined | failed
	Scope   string       `json:"scope,omitempty"`
	Via     string       `json:"via,omitempty"`
	Path    string       `json:"path,omitempty"`
	Entries []string     `json:"entries,omitempty"`
	Error   *errs.Object `json:"error,omitempty"`
}

// done is the agent's line once install (or its dry run) has answered.
func (ia initAgent) done(status string, r *agents.Result) initAgent {
	ia.Status, ia.Scope, ia.Via, ia.Path, ia.Entries = status, r.Scope, r.Via, r.Path, r.Entries
	return ia
}

func runInit(ctx context.Context, f *Factory, opts *initOptions) error {
	for _, a := range opts.agents {
		if _, _, err := agents.Lookup(a, ""); err != nil {
			return err
		}
	}
	if !opts.yes && !f.CanPrompt() {
		return errs.New(errs.ConfirmationRequired, "run `loams init --yes` to accept every step, or run it in a terminal",
			"init changes your profile, stacks, project and agent configs and needs a yes")
	}
	// ask is a question on a terminal; --yes answers it.
	ask := func(q string) (bool, error) {
		if opts.yes {
			return true, nil
		}
		return f.askYes(q, true)
	}
	res := &initResult{Agents: []initAgent{}, Changes: []string{}}
	if err := initProfile(f, opts, res); err != nil {
		return err
	}
	if err := initStackStep(ctx, f, opts, res, ask); err != nil {
		return err
	}
	if err := initEnvStep(ctx, f, opts, res, ask); err != nil {
		return err
	}
	if err := initAgents(ctx, f, opts, res, ask); err != nil {
		return err
	}
	return printInit(f, res, orOther(f.agentsProjectDir, opts.projectDir))
}

// initProfile creates the profile when it is missing and gives it a
// default_stack when it has none; an existing default is left alone.
func initProfile(f *Factory, opts *initOptions, res *initResult) error {
	h, err := f.Home()
	if err != nil {
		return err
	}
	if err := h.Ensure(); err != nil {
		return err
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	name := f.Globals.Profile
	if name == "" {
		name = "default"
	}
	res.Profile = name
	p, existed := cfg.Profile(name)
	if existed && p.DefaultStack != "" {
		return nil
	}
	if err := cfg.Set(name, "default_stack", opts.stack); err != nil {
		return err
	}
	if err := cfg.Save(); err != nil {
		return err
	}
	if !existed {
		res.Changes = append(res.Changes, "created profile "+name)
	}
	res.Changes = append(res.Changes, "set default_stack = "+opts.stack)
	return nil
}

func initStackStep(ctx context.Context, f *Factory, opts *initOptions, res *initResult, ask func(string) (bool, error)) error {
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	name := opts.stack
	res.Stack.Description = &stack.Description{Name: name, State: "absent"}
	d, err := sv.Describe(ctx, name)
	if errs.Is(err, errs.StackNotFound) {
		if ok, err := ask("Create and start the stack " + name + "?"); err != nil || !ok {
			return err
		}
		err = f.withServer(ctx, opts.allowDownload, "loams init --yes", func() error {
			return f.withProgress("starting "+name+"…", func() (err error) {
				d, err = sv.Create(ctx, stack.CreateOptions{Name: name, Engines: opts.engines, PortBase: opts.portBase,
					ServerBinary: opts.serverBinary, Start: true, Wait: opts.wait})
				return err
			})
		})
		if err != nil {
			return err
		}
		res.Stack.Description, res.Stack.Created, res.Stack.Started = d, true, true
		res.Changes = append(res.Changes, "created and started stack "+name)
		return nil
	}
	if err != nil {
		return err
	}
	res.Stack.Description = d
	if len(opts.engines) > 0 {
		f.warn("stack %s already exists and keeps its engines; --engines applies to a new stack", name)
	}
	if d.State == stack.Running {
		return nil
	}
	if ok, err := ask("Start the stack " + name + " (" + d.State + ")?"); err != nil || !ok {
		return err
	}
	if err := f.withProgress("starting "+name+"…", func() (err error) { d, err = sv.Start(ctx, name, opts.wait); return err }); err != nil {
		return err
	}
	res.Stack.Description, res.Stack.Started = d, true
	res.Changes = append(res.Changes, "started stack "+name)
	return nil
}

func initEnvStep(ctx context.Context, f *Factory, opts *initOptions, res *initResult, ask func(string) (bool, error)) error {
	if opts.noEnv || res.Stack.State == "absent" {
		return nil
	}
	dir, err := initProjectDir(f, opts.projectDir)
	if err != nil || dir == "" {
		return err
	}
	f.agentsProjectDir = dir
	ws, err := f.Workspace()
	if err != nil {
		return err
	}
	st, err := ws.StackEnv(ctx, opts.stack)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, ".env.loams")
	if !envfile.Current(path, st) {
		if ok, err := ask("Write " + path + "?"); err != nil || !ok {
			return err
		}
	}
	out, err := envfile.Export(ctx, st, envfile.Target{Write: path, Gitignore: true, Version: buildinfo.Get().Version, Now: f.Now()})
	if err != nil {
		return err
	}
	res.EnvFile = &path
	if !out.Unchanged {
		res.Changes = append(res.Changes, "wrote "+path)
	}
	if out.GitignoreUpdated != "" {
		res.Changes = append(res.Changes, "added .env.loams to "+out.GitignoreUpdated)
	}
	return nil
}

// initProjectDir is --project-dir, else the project the one rule of
// project.Find sees (the same for every command). "" when there is none:
// init then writes no .env.loams rather than guess ($HOME, a bare folder).
func initProjectDir(f *Factory, flag string) (string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	dir, err := project.Find(flag, f.Getenv, cwd)
	if errors.Is(err, project.ErrNotFound) {
		f.warn("%s is not in a project (no .git, package.json, pyproject.toml, requirements.txt, go.mod, Cargo.toml, .cursor/…): "+
			".env.loams not written; run `loams env export --write .env.loams --project-dir DIR` for your project", cwd)
		return "", nil
	}
	return dir, err
}

func initAgents(ctx context.Context, f *Factory, opts *initOptions, res *initResult, ask func(string) (bool, error)) error {
	if opts.noAgent {
		return nil
	}
	env, err := f.agentsEnv("")
	if err != nil {
		return err
	}
	names := opts.agents
	if len(names) == 0 {
		for _, a := range env.Present(ctx) {
			names = append(names, a.Name)
		}
	}
	stackName, url, err := f.stackMCPEndpoint(opts.stack)
	if err != nil && res.Stack.State != "absent" {
		return err
	}
	serveArgs, err := f.serveArgs() // `loams --profile work init` registers `mcp serve --profile work`
	if err != nil {
		return err
	}
	for _, name := range names {
		req := agents.InstallRequest{Agent: name, Stack: stackName, MCPURL: url, ServeArgs: serveArgs, DryRun: true}
		ia := initAgent{Agent: name}
		plan, err := agents.Install(ctx, env, req)
		if err == nil && !plan.Changed {
			res.Agents = append(res.Agents, ia.done("already_installed", plan))
			continue
		}
		if err == nil {
			ok, aerr := ask("Register `loams mcp serve` with " + name + " (" + plan.Path + ")?")
			if aerr != nil {
				return aerr
			}
			if !ok {
				ia.Status = "declined"
				res.Agents = append(res.Agents, ia)
				continue
			}
			req.DryRun = false
			plan, err = agents.Install(ctx, env, req)
		}
		if err != nil {
			// One agent's broken config does not undo the rest of init.
			obj := errs.As(err).Object()
			ia.Status, ia.Error = "failed", &obj
			f.warn("%s not set up: %s (%s)", name, obj.Message, obj.Hint)
			res.Agents = append(res.Agents, ia)
			continue
		}
		res.Agents = append(res.Agents, ia.done("installed", plan))
		res.Changes = append(res.Changes, "registered loams with "+name)
	}
	return nil
}
