package commands

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

type stackSnapshotOptions struct {
	Name string // "" asks the target rule
	As   string // the snapshot's name; "" is the UTC time
}

// newStackSnapshotCmd is `stack snapshot [NAME] [--as SNAP]` and the group
// of its list and delete verbs.
func newStackSnapshotCmd(f *Factory) *cli.Command {
	opts := &stackSnapshotOptions{}
	c := &cli.Command{
		Name:  "snapshot",
		Usage: "Copy a stack's data into a named snapshot",
		Description: describe("Copies data/, the storage's hot/ and every other data directory of the server into\n"+
			"$LOAMS_HOME/stacks/NAME/snapshots/SNAP/ with a SHA-256 manifest. A running stack is stopped\n"+
			"for the copy and started again (downtime_ms says for how long). Restore it with\n"+
			"`loams stack restore NAME SNAP`, or clone it with `loams stack create NEW --from NAME@SNAP`.",
			"loams stack snapshot dev --as before-migration", "loams stack snapshot list dev",
			"loams stack snapshot delete dev before-migration --yes"),
		Flags: []cli.Flag{nameFlag(&opts.Name, false),
			&cli.StringFlag{Name: "as", Usage: "name of the snapshot (default: the UTC time, e.g. 20261204T201500Z)", Destination: &opts.As}},
		Commands: []*cli.Command{newStackSnapshotListCmd(f), newStackSnapshotDeleteCmd(f)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackSnapshot(ctx, f, opts)
		},
	}
	c.ArgsUsage = "[NAME]"
	c.Before = func(ctx context.Context, cmd *cli.Command) (context.Context, error) {
		if cmd.Args().Present() && cmd.Command(cmd.Args().First()) != nil {
			return ctx, nil // `snapshot list …`: the verb reads its own arguments
		}
		return positionalStackName(ctx, cmd)
	}
	c.ShellComplete = completeStackName(f)
	return c
}

// snapshotJSON is the result with the stack it was taken of.
type snapshotJSON struct {
	*stack.SnapshotResult
	Target workspace.Target `json:"target"`
}

func runStackSnapshot(ctx context.Context, f *Factory, opts *stackSnapshotOptions) error {
	t, sv, err := f.stackAndSupervisor(opts.Name)
	if err != nil {
		return err
	}
	var res *stack.SnapshotResult
	if err := f.withProgress("snapshotting "+t.Stack+"…", func() (err error) {
		res, err = sv.Snapshot(ctx, t.Stack, opts.As)
		return err
	}); err != nil {
		return err
	}
	rows := [][]string{{"snapshot", res.Name}, {"stack", res.Stack}, {"size", humanBytes(res.Bytes)},
		{"files", fmt.Sprint(res.Files)}, {"path", res.Path}}
	if res.DowntimeMS > 0 {
		rows = append(rows, []string{"downtime", fmt.Sprintf("%d ms (stopped for the copy, started again)", res.DowntimeMS)})
	}
	rows = append(rows, []string{"restore", "loams stack restore " + res.Stack + " " + res.Name})
	return f.Printer().Print(output.View{JSON: snapshotJSON{res, t}, Rows: rows})
}

// humanBytes is a size for people: 1.5 GiB, 320 KiB, 12 B.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
