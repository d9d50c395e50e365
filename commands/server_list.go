package commands

import (
	"context"
	"strconv"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
	"loams.dev/cli/serverbin"
)

func newServerListCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "Show every Loams server binary found, which one is used and why",
		Description: describe("Looks in the order stacks do: --server-binary, LOAMS_SERVER_BINARY, the profile's\n"+
			"server_binary, the installed server ($LOAMS_HOME/servers), loams-server and every\n"+
			"other loams on PATH, /usr/bin/loams and /usr/local/bin/loams (packages), Loams\n"+
			"Desktop, ~/.cargo/bin/loams. A candidate is a server when `dev --help` lists\n"+
			"--data-dir; this CLI itself is never used.",
			"loams server list", "loams server list --output json"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runServerList(ctx, f)
		},
	}
}

func runServerList(ctx context.Context, f *Factory) error {
	fd, err := f.serverFinder("")
	if err != nil {
		return err
	}
	stop := f.IO.Progress("asking each candidate what it is")
	cs := fd.List(ctx)
	stop()
	var rows [][]string
	used := false
	for i, c := range cs {
		used = used || c.Used
		status := "used"
		if !c.Used {
			status = "skipped: " + c.SkippedBecause
		}
		rows = append(rows, []string{strconv.Itoa(i + 1), c.Path, c.Source, orDash(c.Version), status})
	}
	err = f.Printer().Print(output.View{JSON: map[string][]serverbin.Candidate{"servers": cs},
		Header: []string{"#", "path", "source", "version", "status"}, Rows: rows,
		Empty: "no Loams server found; " + serverbin.NotFound().Hint})
	if err == nil && !used && len(cs) > 0 && !f.JSON() {
		f.say("no Loams server among these; %s", serverbin.NotFound().Hint)
	}
	return err
}
