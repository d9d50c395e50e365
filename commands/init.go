package commands

import (
	"context"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/agents"
	"loams.dev/cli/internal/errs"
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
			"It asks before each step on a terminal; --yes answers yes for scripts. A step that\n"+
			"fails or is declined does not stop the others: with no Loams server, the profile and\n"+
			"the agents are still set up, the summary says how to get a server, and init exits 4\n"+
			"(server_binary_not_found). Running it again finishes what is left and changes nothing else.",
			"loams init", "loams init --yes", "loams init --yes --no-agent --output json",
			"loams init --stack search --engines native,qdrant --agent codex"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "answer yes to every question", Destination: &opts.yes},
			&cli.StringFlag{Name: "stack", Usage: "stack to create or reuse, and bind the project to (default: the project's loams.toml, else the project directory's name)", Destination: &opts.stack},
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

// initResult is `loams init --output json`. Steps says what became of
// each step; Changes lists what this run changed (a second run: none).
type initResult struct {
	Profile string           `json:"profile"`
	Stack   initStack        `json:"stack"`
	EnvFile *string          `json:"env_file"`
	Agents  []initAgent      `json:"agents"`
	Steps   []initStepResult `json:"steps"`
	Changes []string         `json:"changes"`
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

// initRun is one run of init: its options and what its steps found and
// did so far.
type initRun struct {
	f    *Factory
	opts *initOptions
	res  *initResult
	// projectDir is where .env.loams goes ("" when not in a project);
	// agents is the agent step's plan.
	projectDir string
	agents     []agentPlan
}

func (r *initRun) changed(what string) { r.res.Changes = append(r.res.Changes, what) }

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
	f.assumeYes = opts.yes // a worktree's own stack too
	dir, err := initProjectDir(f, opts.projectDir)
	if err != nil {
		return err
	}
	if dir != "" { // project-scope agent entries go there too
		f.agentsProjectDir = dir
		f.useProjectDir(dir) // and its loams.toml is the one read and written
	}
	if opts.stack == "" {
		if opts.stack, err = chooseInitStack(f, dir); err != nil {
			return err
		}
	}
	r := &initRun{f: f, opts: opts, projectDir: dir, res: &initResult{Agents: []initAgent{}, Steps: []initStepResult{}, Changes: []string{}}}
	r.res.Stack.Description = &stack.Description{Name: opts.stack, State: "absent"}
	for _, st := range initSteps() {
		res, err := st.exec(ctx, r)
		if err != nil { // an unanswered question (Ctrl-C, end of input) ends init here
			return err
		}
		if ctx.Err() != nil { // interrupted: the step took back what it started (stack create); no summary
			return ctx.Err()
		}
		r.res.Steps = append(r.res.Steps, res)
	}
	if err := printInit(f, r.res, dir); err != nil {
		return err
	}
	return r.res.failure()
}

// failure is what init exits with after its summary: no server first (one
// code for it, whatever else went wrong), else the first failed step.
func (res *initResult) failure() error {
	var first error
	for _, s := range res.Steps {
		switch {
		case s.err == nil:
		case noServer(s.err):
			return s.err
		case first == nil:
			first = s.err
		}
	}
	return first
}
