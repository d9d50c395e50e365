package commands

import (
	"context"
	"os"
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

func newStackAutostartCmd(f *Factory) *cli.Command {
	c := &cli.Command{
		Name:  "autostart",
		Usage: "Start a stack at login and after a crash, with your own service manager",
		Description: describe("Registers `loams stack run NAME` with systemd (a user unit), launchd (a\n"+
			"LaunchAgent) or the Task Scheduler (a logon task). `stack start`, `stop` and\n"+
			"`restart` of such a stack then go through the service manager.",
			"loams stack autostart on dev", "loams stack autostart on dev --dry-run --os darwin",
			"loams stack autostart status dev", "loams stack autostart off dev"),
		Commands: []*cli.Command{newAutostartOnCmd(f), newAutostartOffCmd(f), newAutostartStatusCmd(f)},
	}
	for _, sub := range c.Commands {
		sub.ArgsUsage = "[NAME]"
		sub.Before = positionalStackName
		sub.ShellComplete = completeStackName(f)
	}
	return c
}

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

func newAutostartOnCmd(f *Factory) *cli.Command {
	var name, goos string
	var dryRun bool
	var wait time.Duration
	return &cli.Command{
		Name:  "on",
		Usage: "Register a stack with the service manager and start it",
		Description: describe("A stack running outside the service manager is stopped first, then started under it.\n"+
			"--dry-run prints the file and the commands instead; with --os it renders another\n"+
			"platform's file ("+strings.Join(autostart.OSes(), ", ")+").",
			"loams stack autostart on dev", "loams stack autostart on dev --dry-run --os windows"),
		Flags: []cli.Flag{nameFlag(&name, false),
			&cli.BoolFlag{Name: "dry-run", Usage: "print the file and the commands, change nothing", Destination: &dryRun},
			&cli.StringFlag{Name: "os", Usage: "with --dry-run: render for " + strings.Join(autostart.OSes(), ", "), Destination: &goos},
			&cli.DurationFlag{Name: "wait-timeout", Value: stack.DefaultWait, Usage: "how long to wait for the server to be ready", Destination: &wait}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if goos != "" && !slices.Contains(autostart.OSes(), goos) {
				return errs.New(errs.Usage, "use --os "+strings.Join(autostart.OSes(), ", "), "unknown --os %q", goos)
			}
			if goos != "" && goos != runtime.GOOS && !dryRun {
				return errs.New(errs.Usage, "add --dry-run to see the "+goos+" registration", "--os %s renders another platform's file; it can only be shown, not installed, here", goos)
			}
			t, err := f.stackTarget(name)
			n := t.Stack
			if err != nil {
				return err
			}
			r, err := f.registrationFor(n, goos)
			if err != nil {
				return err
			}
			if err := r.p.Check(r.s); err != nil {
				return err
			}
			plan := autostartPlan{Stack: n, OS: r.p.OS, Manager: r.p.Manager, File: r.file, Content: string(r.p.Render(r.s)),
				Commands: r.p.On(r.u, r.s, r.file), DryRun: dryRun}
			if dryRun {
				return f.Printer().Print(output.View{JSON: plan, Raw: planText(plan)})
			}
			d, err := f.autostartOn(ctx, r, wait)
			if err != nil {
				return err
			}
			f.say("stack %s now starts at login under %s (%s)", n, r.p.Manager, r.file)
			return f.printStack(d, t)
		},
	}
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
	if err := autostart.Write(r.file, r.p.Bytes(r.s)); err != nil {
		return nil, err
	}
	if err := r.run.RunAll(ctx, r.p, r.p.On(r.u, r.s, r.file)); err != nil {
		_ = autostart.Remove(r.file)
		return nil, err
	}
	var d *stack.Description
	err = f.withProgress("starting "+r.s.Stack+" under "+r.p.Manager+"…", func() (err error) {
		d, err = waitRunning(ctx, sv, r.s.Stack, wait)
		return err
	})
	return d, err
}

func newAutostartOffCmd(f *Factory) *cli.Command {
	var name string
	return &cli.Command{
		Name:        "off",
		Usage:       "Unregister a stack from the service manager (and stop it)",
		Description: describe("`loams stack start` runs it again, without the service manager.", "loams stack autostart off dev"),
		Flags:       []cli.Flag{nameFlag(&name, false)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			n, err := f.stackName(name)
			if err != nil {
				return err
			}
			r, err := f.registrationFor(n, "")
			if err != nil {
				return err
			}
			was := r.p.Registered(r.u, r.s)
			if err := f.autostartOff(ctx, r); err != nil {
				return err
			}
			res := map[string]any{"stack": n, "autostart": "off", "was_on": was, "file": r.file}
			msg := "autostart of stack " + n + " is off; `loams stack start " + n + "` runs it without " + r.p.Manager
			if !was {
				msg = "autostart of stack " + n + " was not on"
			}
			return f.Printer().Print(output.View{JSON: res, Rows: [][]string{{"stack", n}, {"autostart", "off"}}, TextRows: [][]string{{n, "off"}}, Raw: msg + "\n"})
		},
	}
}

// autostartOff unregisters the stack, removes the file and stops what the
// manager leaves running. A manager that cannot be reached does not keep
// the file in place: it could never start anything either.
func (f *Factory) autostartOff(ctx context.Context, r *registration) error {
	if !r.p.Registered(r.u, r.s) {
		return nil
	}
	if err := r.run.RunAll(ctx, r.p, r.p.Off(r.u, r.s, r.file)); err != nil {
		f.Notice("%v", err)
	}
	if err := autostart.Remove(r.file); err != nil {
		return err
	}
	if r.p.AfterOff != nil {
		_ = r.run.RunAll(ctx, r.p, r.p.AfterOff(r.u, r.s, r.file))
	}
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	_, err = sv.Stop(ctx, r.s.Stack, stack.DefaultGrace)
	return err
}

// autostartStatus is `autostart status`.
type autostartStatus struct {
	Stack         string `json:"stack"`
	Autostart     string `json:"autostart"`
	Manager       string `json:"manager"`
	File          string `json:"file"`
	Program       string `json:"program,omitempty"`
	ProgramExists bool   `json:"program_exists"`
	Active        bool   `json:"active"`
}

func newAutostartStatusCmd(f *Factory) *cli.Command {
	var name string
	return &cli.Command{
		Name:        "status",
		Usage:       "Say whether a stack is registered with the service manager, and running under it",
		Description: describe("", "loams stack autostart status dev", "loams stack autostart status dev -o json"),
		Flags:       []cli.Flag{nameFlag(&name, false)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			n, err := f.stackName(name)
			if err != nil {
				return err
			}
			r, err := f.registrationFor(n, "")
			if err != nil {
				return err
			}
			st := autostartStatus{Stack: n, Autostart: "off", Manager: r.p.Manager, File: r.file}
			if data, err := os.ReadFile(r.file); err == nil {
				st.Autostart, st.Program = "on", r.p.Program(data)
				_, err := os.Stat(st.Program)
				st.ProgramExists = st.Program != "" && err == nil
				_, err = r.run.Run(ctx, r.p.Active(r.u, r.s))
				st.Active = err == nil
			}
			rows := [][]string{{"stack", n}, {"autostart", st.Autostart}, {"manager", st.Manager}, {"file", st.File}}
			if st.Autostart == "on" {
				rows = append(rows, []string{"runs", st.Program}, []string{"active", yesNo(st.Active)})
			}
			return f.Printer().Print(output.View{JSON: st, Rows: rows})
		},
	}
}
