package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/stack"
)

type stackDeleteOptions struct {
	Name     string
	KeepData bool // move data/ aside
	Yes      bool
}

func newStackDeleteCmd(f *Factory) *cli.Command {
	opts := &stackDeleteOptions{}
	return &cli.Command{
		Name:    "delete",
		Aliases: []string{"rm"},
		Usage:   "Stop a stack and delete its directory, data and API key",
		Description: describe("Asks first on a terminal; scripts pass --yes. --keep-data moves data/ aside.",
			"loams stack delete dev --yes", "loams stack delete dev --keep-data --yes"),
		Flags: []cli.Flag{nameOrBoundFlag(&opts.Name),
			&cli.BoolFlag{Name: "keep-data", Usage: "move data/ to $LOAMS_HOME/kept/ instead of deleting it", Destination: &opts.KeepData},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation", Destination: &opts.Yes}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackDelete(ctx, f, opts)
		},
	}
}

func runStackDelete(ctx context.Context, f *Factory, opts *stackDeleteOptions) (err error) {
	if opts.Name, err = f.namedOrBound(opts.Name, "delete"); err != nil {
		return err
	}
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	_, err = sv.Describe(ctx, opts.Name)
	gone := errs.Is(err, errs.StackNotFound) // deleting it again succeeds, like stop
	if err != nil && !gone {
		return err
	}
	if !opts.Yes && !gone {
		if !f.CanPrompt() {
			return errs.New(errs.ConfirmationRequired, "pass --yes to delete it", "deleting stack %q needs confirmation", opts.Name).With("name", opts.Name)
		}
		ok, err := f.askYes("Delete stack "+opts.Name+", its data and its API key?", false)
		if err != nil || !ok {
			return errs.New(errs.ConfirmationRequired, "pass --yes to delete it", "not deleted").With("name", opts.Name)
		}
	}
	if r := f.autostart().Managed(opts.Name); r != nil { // nothing may start it again
		if err := r.Off(ctx); err != nil {
			return err
		}
	}
	res, err := sv.Delete(ctx, opts.Name, opts.KeepData)
	if err != nil {
		return err
	}
	out := stackDeleted{DeleteResult: res}
	if ws, err := f.Workspace(); err != nil {
		return err
	} else if out.DefaultUnset, err = ws.Forget(opts.Name); err != nil {
		return err
	}
	rows := [][]string{{"deleted", res.Name}}
	if res.AlreadyGone {
		rows = [][]string{{"already gone", res.Name}}
	}
	if res.KeptData != "" {
		rows = append(rows, []string{"data kept in", res.KeptData})
	}
	for _, p := range out.DefaultUnset {
		rows = append(rows, []string{"default_stack unset", "profile " + p})
	}
	return f.Printer().Print(output.View{JSON: out, Rows: rows})
}

// stackDeleted is what delete did, with the profiles whose default_stack
// named the stack (now unset).
type stackDeleted struct {
	*stack.DeleteResult
	DefaultUnset []string `json:"default_stack_unset,omitempty"`
}
