package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
)

type autostartOffOptions struct {
	Name string // "" asks the target rule
}

func newAutostartOffCmd(f *Factory) *cli.Command {
	opts := &autostartOffOptions{}
	return &cli.Command{
		Name:        "off",
		Usage:       "Unregister a stack from the service manager (and stop it)",
		Description: describe("`loams stack start` runs it again, without the service manager.", "loams stack autostart off dev"),
		Flags:       []cli.Flag{nameFlag(&opts.Name, false)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runAutostartOff(ctx, f, opts)
		},
	}
}

func runAutostartOff(ctx context.Context, f *Factory, opts *autostartOffOptions) error {
	n, r, err := autostartTarget(f, opts.Name)
	if err != nil {
		return err
	}
	was := r.Registered()
	if err := r.Off(ctx); err != nil {
		return err
	}
	res := map[string]any{"stack": n, "autostart": "off", "was_on": was, "file": r.File}
	msg := "autostart of stack " + n + " is off; `loams stack start " + n + "` runs it without " + r.Platform.Manager
	if !was {
		msg = "autostart of stack " + n + " was not on"
	}
	return f.Printer().Print(output.View{JSON: res, Rows: [][]string{{"stack", n}, {"autostart", "off"}}, TextRows: [][]string{{n, "off"}}, Raw: msg + "\n"})
}
