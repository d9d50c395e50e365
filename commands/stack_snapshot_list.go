package commands

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
	"loams.dev/cli/stack"
)

func newStackSnapshotListCmd(f *Factory) *cli.Command {
	var name string
	return &cli.Command{
		Name:        "list",
		Aliases:     []string{"ls"},
		Usage:       "List a stack's snapshots (every stack's without NAME)",
		Description: describe("", "loams stack snapshot list dev", "loams stack snapshot list --output json"),
		ArgsUsage:   "[NAME]",
		Flags:       []cli.Flag{nameFlag(&name, false)},
		Before:      positionalStackName,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runStackSnapshotList(f, name)
		},
	}
}

func runStackSnapshotList(f *Factory, name string) error {
	sv, err := f.Supervisor()
	if err != nil {
		return err
	}
	names := []string{name}
	if name == "" {
		if names, err = stack.List(sv.Home); err != nil {
			return err
		}
	}
	all := []stack.Snapshot{}
	for _, n := range names {
		snaps, err := sv.Snapshots(n)
		if err != nil {
			return err
		}
		all = append(all, snaps...)
	}
	var rows, text [][]string
	for _, s := range all {
		rows = append(rows, []string{s.Stack, s.Name, s.CreatedAt.Format("2006-01-02 15:04:05Z"), humanBytes(s.Bytes)})
		text = append(text, []string{s.Stack, s.Name, s.CreatedAt.UTC().Format(time.RFC3339), fmt.Sprint(s.Bytes)})
	}
	return f.Printer().Print(output.View{JSON: map[string]any{"snapshots": all}, Header: []string{"STACK", "SNAPSHOT", "TAKEN", "SIZE"},
		Rows: rows, TextRows: text, Empty: "no snapshots yet: `loams stack snapshot NAME` takes one"})
}
