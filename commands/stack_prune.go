package commands

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/stack"
)

type stackPruneOptions struct {
	DryRun, Yes bool
}

func newStackPruneCmd(f *Factory) *cli.Command {
	opts := &stackPruneOptions{}
	return &cli.Command{
		Name:  "prune",
		Usage: "Delete the stacks whose project directory is gone",
		Description: describe("A stack records the project it was made for (a git worktree's stack, its worktree).\n"+
			"When that directory no longer exists, prune stops the stack and deletes it and its key.\n"+
			"It lists them first; a stack whose project exists is never touched.",
			"loams stack prune --dry-run", "loams stack prune --yes"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "list what would be deleted, delete nothing", Destination: &opts.DryRun},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation", Destination: &opts.Yes}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackPrune(ctx, f, opts)
		},
	}
}

type pruneJSON struct {
	Stacks  []stack.Orphan `json:"stacks"`
	Deleted bool           `json:"deleted"`
}

func runStackPrune(ctx context.Context, f *Factory, opts *stackPruneOptions) error {
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	orphans, err := sv.Orphans()
	if err != nil {
		return err
	}
	rows := make([][]string, len(orphans))
	var names []string
	for i, o := range orphans {
		rows[i] = []string{o.Name, o.Project}
		names = append(names, o.Name)
	}
	view := output.View{JSON: pruneJSON{Stacks: orphans}, Header: []string{"STACK", "PROJECT (GONE)"}, Rows: rows,
		Empty: "no stack's project directory is gone: nothing to prune"}
	if opts.DryRun || len(orphans) == 0 {
		return f.Printer().Print(view)
	}
	if !opts.Yes {
		if !f.CanPrompt() {
			return errs.New(errs.ConfirmationRequired, "pass --yes to delete them (--dry-run lists them)",
				"pruning %s needs confirmation", strings.Join(names, ", ")).With("stacks", names)
		}
		f.IO.Say("These stacks' project directories are gone:")
		for _, o := range orphans {
			f.IO.Say("  %s  (%s)", o.Name, o.Project)
		}
		ok, err := f.askYes("Delete them, their data and their keys?", false)
		if err != nil || !ok {
			return errs.New(errs.ConfirmationRequired, "pass --yes to delete them", "nothing pruned").With("stacks", names)
		}
	}
	for _, o := range orphans {
		if r := f.autostart().Managed(o.Name); r != nil { // nothing may start it again
			if err := r.Off(ctx); err != nil {
				return err
			}
		}
		if _, err := sv.Delete(ctx, o.Name, false); err != nil {
			return err
		}
	}
	view.JSON = pruneJSON{Stacks: orphans, Deleted: true}
	return f.Printer().Print(view)
}
