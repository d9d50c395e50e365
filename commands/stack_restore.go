package commands

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

func newStackRestoreCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "restore",
		Usage: "Put a snapshot's data back in place of a stack's",
		Description: describe("The data it replaces is kept as snapshot before-restore-<time> (restore that to undo).\n"+
			"A running stack is stopped and started again; its key, ports and .env.loams stay as they are.",
			"loams stack restore dev before-migration"),
		ArgsUsage: "NAME SNAP",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			name, snap, err := stackAndSnap(cmd)
			if err != nil {
				return err
			}
			return runStackRestore(ctx, f, name, snap)
		},
	}
}

type restoreJSON struct {
	*stack.RestoreResult
	Target workspace.Target `json:"target"`
}

func runStackRestore(ctx context.Context, f *Factory, name, snap string) error {
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	var res *stack.RestoreResult
	if err := f.withProgress("restoring "+name+" from "+snap+"…", func() (err error) {
		res, err = sv.Restore(ctx, name, snap)
		return err
	}); err != nil {
		return err
	}
	rows := [][]string{{"restored", name + " from " + snap}, {"kept as", res.Before},
		{"undo", "loams stack restore " + name + " " + res.Before}}
	if res.DowntimeMS > 0 {
		rows = append(rows, []string{"downtime", fmt.Sprintf("%d ms", res.DowntimeMS)})
	}
	return f.Printer().Print(output.View{JSON: restoreJSON{res, workspace.Target{Stack: name, Source: workspace.FromArgument}}, Rows: rows})
}
