package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
)

func newStackListCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:        "list",
		Aliases:     []string{"ls"},
		Usage:       "List the stacks of this LOAMS_HOME",
		Description: describe("", "loams stack list", "loams stack ls --output text | cut -f1"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackList(ctx, f)
		},
	}
}

// runStackList takes no options: the verb has no flags of its own.
func runStackList(ctx context.Context, f *Factory) error {
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	ds, err := sv.Status(ctx, "")
	if err != nil {
		return err
	}
	views := make([]stackView, len(ds))
	for i, d := range ds {
		views[i] = stackView{Description: d, Autostart: f.autostart().State(d.Name)}
	}
	return f.Printer().Print(listView(views))
}

func listView(ds []stackView) output.View {
	var rows [][]string
	for _, d := range ds {
		var engines []string
		for _, e := range d.Engines {
			engines = append(engines, e.Engine)
		}
		pid := ""
		if d.PID != nil {
			pid = fmt.Sprint(*d.PID)
		}
		rows = append(rows, []string{d.Name, d.State, strings.Join(engines, ","), d.Engines[0].Endpoints["http"], pid, d.Autostart})
	}
	return output.View{JSON: map[string]any{"stacks": ds}, Header: []string{"name", "state", "engines", "url", "pid", "autostart"}, Rows: rows,
		Empty: "no stacks yet: `loams stack create --name dev`"}
}
