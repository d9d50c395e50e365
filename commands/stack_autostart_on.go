package commands

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/autostart"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/stack"
)

// autostartPlan is what `on` does: the file and the commands.
type autostartPlan struct {
	Stack    string     `json:"stack"`
	OS       string     `json:"os"`
	Manager  string     `json:"manager"`
	File     string     `json:"file"`
	Content  string     `json:"content"`
	Commands [][]string `json:"commands"`
	DryRun   bool       `json:"dry_run"`
}

type autostartOnOptions struct {
	Name   string // "" asks the target rule
	OS     string // --os: render another platform's file (dry run only)
	DryRun bool
	Wait   time.Duration // --wait-timeout
}

func newAutostartOnCmd(f *Factory) *cli.Command {
	opts := &autostartOnOptions{}
	return &cli.Command{
		Name:  "on",
		Usage: "Register a stack with the service manager and start it",
		Description: describe("A stack running outside the service manager is stopped first, then started under it.\n"+
			"--dry-run prints the file and the commands instead; with --os it renders another\n"+
			"platform's file ("+strings.Join(autostart.OSes(), ", ")+").",
			"loams stack autostart on dev", "loams stack autostart on dev --dry-run --os windows"),
		Flags: []cli.Flag{nameFlag(&opts.Name, false),
			&cli.BoolFlag{Name: "dry-run", Usage: "print the file and the commands, change nothing", Destination: &opts.DryRun},
			&cli.StringFlag{Name: "os", Usage: "with --dry-run: render for " + strings.Join(autostart.OSes(), ", "), Destination: &opts.OS},
			&cli.DurationFlag{Name: "wait-timeout", Value: stack.DefaultWait, Usage: "how long to wait for the server to be ready", Destination: &opts.Wait}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if opts.OS != "" && !slices.Contains(autostart.OSes(), opts.OS) {
				return errs.New(errs.Usage, "use --os "+strings.Join(autostart.OSes(), ", "), "unknown --os %q", opts.OS)
			}
			if opts.OS != "" && opts.OS != runtime.GOOS && !opts.DryRun {
				return errs.New(errs.Usage, "add --dry-run to see the "+opts.OS+" registration", "--os %s renders another platform's file; it can only be shown, not installed, here", opts.OS)
			}
			return runAutostartOn(ctx, f, opts)
		},
	}
}

func runAutostartOn(ctx context.Context, f *Factory, opts *autostartOnOptions) error {
	t, err := f.stackTarget(opts.Name)
	n := t.Stack
	if err != nil {
		return err
	}
	r, err := f.registrationFor(n, opts.OS)
	if err != nil {
		return err
	}
	if err := r.p.Check(r.s); err != nil {
		return err
	}
	plan := autostartPlan{Stack: n, OS: r.p.OS, Manager: r.p.Manager, File: r.file, Content: string(r.p.Render(r.s)),
		Commands: r.p.On(r.u, r.s, r.file), DryRun: opts.DryRun}
	if opts.DryRun {
		return f.Printer().Print(output.View{JSON: plan, Raw: planText(plan)})
	}
	d, err := f.autostartOn(ctx, r, opts.Wait)
	if err != nil {
		return err
	}
	f.say("stack %s now starts at login under %s (%s)", n, r.p.Manager, r.file)
	return f.printStack(d, t)
}

func planText(p autostartPlan) string {
	var b strings.Builder
	b.WriteString("# " + p.File + "\n" + p.Content + "\n# then:\n")
	for _, c := range p.Commands {
		b.WriteString(strings.Join(c, " ") + "\n")
	}
	return b.String()
}

// autostartOn checks the manager is there before writing anything, hands
// a running stack over to it, writes the file and runs the commands; a
// failure removes the file again.
func (f *Factory) autostartOn(ctx context.Context, r *registration, wait time.Duration) (*stack.Description, error) {
	if err := r.run.Check(ctx, r.p, r.u); err != nil {
		return nil, err
	}
	sv, err := f.Supervisor()
	if err != nil {
		return nil, err
	}
	if _, err := stack.LoadTrusted(sv.Home, r.s.Stack); err != nil {
		return nil, err
	}
	if r.p.Registered(r.u, r.s) { // again: re-register (loams moved, the file changed)
		_ = r.run.RunAll(ctx, r.p, r.p.Off(r.u, r.s, r.file))
	}
	if d, err := sv.Describe(ctx, r.s.Stack); err == nil && d.PID != nil {
		f.Notice("stopping stack %s so that %s runs it", r.s.Stack, r.p.Manager)
		if _, err := sv.Stop(ctx, r.s.Stack, stack.DefaultGrace); err != nil {
			return nil, err
		}
	}
	if log, err := stack.OpenLog(sv.Home, r.s.Stack); err == nil {
		log.Close()
	}
	if err := autostart.Write(r.file, r.s.Stack, r.p.Bytes(r.s)); err != nil {
		return nil, err
	}
	if err := r.run.RunAll(ctx, r.p, r.p.On(r.u, r.s, r.file)); err != nil {
		_ = autostart.Remove(r.file, r.s.Stack)
		return nil, err
	}
	var d *stack.Description
	err = f.withProgress("starting "+r.s.Stack+" under "+r.p.Manager+"…", func() (err error) {
		d, err = waitRunning(ctx, sv, r.s.Stack, wait)
		return err
	})
	return d, err
}
