package commands

import (
	"context"
	"os"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
)

// autostartStatus is `autostart status`.
type autostartStatus struct {
	Stack     string `json:"stack"`
	Autostart string `json:"autostart"`
	Manager   string `json:"manager"`
	// ManagerReachable is whether the user's service manager answers now
	// (what `autostart on` checks first); ManagerProblem says why not.
	ManagerReachable bool   `json:"manager_reachable"`
	ManagerProblem   string `json:"manager_problem,omitempty"`
	File             string `json:"file"`
	Program          string `json:"program,omitempty"`
	ProgramExists    bool   `json:"program_exists"`
	Active           bool   `json:"active"`
}

type autostartStatusOptions struct {
	Name string // "" asks the target rule
}

func newAutostartStatusCmd(f *Factory) *cli.Command {
	opts := &autostartStatusOptions{}
	return &cli.Command{
		Name:        "status",
		Usage:       "Say whether a stack is registered with the service manager, and running under it",
		Description: describe("", "loams stack autostart status dev", "loams stack autostart status dev -o json"),
		Flags:       []cli.Flag{nameFlag(&opts.Name, false)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runAutostartStatus(ctx, f, opts)
		},
	}
}

func runAutostartStatus(ctx context.Context, f *Factory, opts *autostartStatusOptions) error {
	n, r, err := autostartTarget(f, opts.Name)
	if err != nil {
		return err
	}
	st := autostartStatus{Stack: n, Autostart: "off", Manager: r.Platform.Manager, File: r.File, ManagerReachable: true}
	// Naming the manager is not saying it runs: a container or a sudo shell
	// has no user manager, and `autostart on` just said so.
	if err := r.Run.Check(ctx, r.Platform, r.User); err != nil {
		st.ManagerReachable, st.ManagerProblem = false, errs.As(err).Message
	}
	if data, err := os.ReadFile(r.File); err == nil {
		st.Autostart, st.Program = "on", r.Platform.Program(data)
		_, err := os.Stat(st.Program)
		st.ProgramExists = st.Program != "" && err == nil
		_, err = r.Run.Run(ctx, r.Platform.Active(r.User, r.Service))
		st.Active = err == nil
	}
	manager := st.Manager
	if !st.ManagerReachable {
		manager += " (not reachable: " + st.ManagerProblem + ")"
	}
	rows := [][]string{{"stack", n}, {"autostart", st.Autostart}, {"manager", manager}, {"file", st.File}}
	if st.Autostart == "on" {
		rows = append(rows, []string{"runs", st.Program}, []string{"active", yesNo(st.Active)})
	}
	return f.Printer().Print(output.View{JSON: st, Rows: rows})
}
