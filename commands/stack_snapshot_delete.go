package commands

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
)

type stackSnapshotDeleteOptions struct {
	Name, Snap string
	Yes        bool
}

func newStackSnapshotDeleteCmd(f *Factory) *cli.Command {
	opts := &stackSnapshotDeleteOptions{}
	return &cli.Command{
		Name:        "delete",
		Aliases:     []string{"rm"},
		Usage:       "Delete one snapshot of a stack",
		Description: describe("Asks first on a terminal; scripts pass --yes.", "loams stack snapshot delete dev before-migration --yes"),
		ArgsUsage:   "NAME SNAP",
		Flags:       []cli.Flag{&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation", Destination: &opts.Yes}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			var err error
			if opts.Name, opts.Snap, err = stackAndSnap(cmd); err != nil {
				return err
			}
			return runStackSnapshotDelete(f, opts)
		},
	}
}

// stackAndSnap reads the NAME SNAP arguments of restore and snapshot delete.
func stackAndSnap(cmd *cli.Command) (string, string, error) {
	if cmd.NArg() != 2 {
		return "", "", errs.New(errs.Usage, fmt.Sprintf("run `%s NAME SNAP` (`loams stack snapshot list` shows them)", cmd.FullName()),
			"%s takes a stack and a snapshot, got %d arguments", cmd.FullName(), cmd.NArg())
	}
	return cmd.Args().Get(0), cmd.Args().Get(1), nil
}

func runStackSnapshotDelete(f *Factory, opts *stackSnapshotDeleteOptions) error {
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	if !opts.Yes {
		if !f.CanPrompt() {
			return errs.New(errs.ConfirmationRequired, "pass --yes to delete it", "deleting snapshot %q of stack %q needs confirmation", opts.Snap, opts.Name).
				With("name", opts.Name).With("snapshot", opts.Snap)
		}
		ok, err := f.askYes("Delete snapshot "+opts.Snap+" of stack "+opts.Name+"?", false)
		if err != nil || !ok {
			return errs.New(errs.ConfirmationRequired, "pass --yes to delete it", "not deleted").With("name", opts.Name).With("snapshot", opts.Snap)
		}
	}
	if err := sv.DeleteSnapshot(opts.Name, opts.Snap); err != nil {
		return err
	}
	return f.Printer().Print(output.View{JSON: map[string]any{"name": opts.Name, "snapshot": opts.Snap, "deleted": true},
		Rows: [][]string{{"deleted", opts.Snap}, {"stack", opts.Name}}})
}
