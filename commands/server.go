package commands

import (
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/serverbin"
)

// newServerGroupCmd is `loams server`: the server binary the stacks run.
// (newServerCmd is the pass-through of `loams dev|standalone|cluster`.)
func newServerGroupCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "server",
		Usage: "Find, install and remove the Loams server binary the stacks run",
		Description: describe("The server is a separate program, also named loams. `server list` shows every\n"+
			"copy loams finds and which one it uses; `server install` downloads a verified release.",
			"loams server list", "loams server install", "loams server remove 0.2.0 --yes"),
		Commands: []*cli.Command{newServerListCmd(f), newServerInstallCmd(f), newServerRemoveCmd(f)},
	}
}

// serverFinder is discovery for this CLI: LOAMS_HOME, the profile's
// server_binary, and this executable as the one to never pick.
func (f *Factory) serverFinder(explicit string) (*serverbin.Finder, error) {
	h, err := f.Home()
	if err != nil {
		return nil, err
	}
	p, err := f.Profile()
	if err != nil {
		return nil, err
	}
	fd := serverbin.NewFinder(h, f.Getenv, explicit, p.ServerBinary)
	if f.Executable != nil {
		if self, err := f.executable(); err == nil {
			fd.Self = self
		}
	}
	return fd, nil
}

// skewNotice is the one line an older server gets in table mode (json
// has compatibility: "older"): it works, but may lack what the docs show.
func (f *Factory) skewNotice(serverVersion, compatibility string) {
	if compatibility == serverbin.Older && !f.JSON() {
		f.say("notice: Loams server %s is older than this loams supports fully (its own minor or one below); run `loams server install` for a current one", serverVersion)
	}
}

// serverRows are describe's lines for what GetInstance said.
func serverRows(edition string, services []serverbin.Service) [][]string {
	var rows [][]string
	if edition != "" {
		rows = append(rows, []string{"edition", edition})
	}
	var have, lack []string
	for _, s := range services {
		if s.Available {
			have = append(have, s.Package)
		} else {
			lack = append(lack, s.Package)
		}
	}
	if len(have) > 0 {
		rows = append(rows, []string{"services", strings.Join(have, ", ")})
	}
	if len(lack) > 0 {
		rows = append(rows, []string{"not in this build", strings.Join(lack, ", ")})
	}
	return rows
}
