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
	r, err := f.autostart().Registration(n, opts.OS)
	if err != nil {
		return err
	}
	p := r.Platform
	if err := p.Check(r.Service); err != nil {
		return err
	}
	plan := autostartPlan{Stack: n, OS: p.OS, Manager: p.Manager, File: r.File, Content: string(p.Render(r.Service)),
		Commands: p.On(r.User, r.Service, r.File), DryRun: opts.DryRun}
	if opts.DryRun {
		return f.Printer().Print(output.View{JSON: plan, Raw: planText(plan)})
	}
	d, err := r.On(ctx, opts.Wait, f.withProgress)
	if err != nil {
		return err
	}
	f.say("stack %s now starts at login under %s (%s)", n, p.Manager, r.File)
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
