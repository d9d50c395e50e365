package commands

import (
	"strings"

	"loams.dev/cli/internal/output"
)

// printInit shows what init did and what to do next: the summary on
// stdout, the next steps on stderr (json mode: the result alone).
func printInit(f *Factory, res *initResult) error {
	d := res.Stack.Description
	rows := [][]string{{"profile", res.Profile}, {"stack", d.Name + " (" + d.State + ")"}}
	rows = append(rows, engineRows(d, "  ")...)
	if res.EnvFile != nil {
		rows = append(rows, []string{"env file", *res.EnvFile})
	}
	for _, a := range res.Agents {
		rows = append(rows, []string{a.Agent, strings.ReplaceAll(a.Status, "_", " ")})
	}
	if len(res.Changes) == 0 {
		rows = append(rows, []string{"changes", "none: everything was already set up"})
	}
	if err := f.Printer().Print(output.View{JSON: res, Rows: rows}); err != nil || f.JSON() {
		return err
	}
	var next []string
	if res.EnvFile != nil {
		next = append(next, "your app reads LOAMS_URL and LOAMS_API_KEY from "+*res.EnvFile)
	}
	for _, a := range res.Agents {
		if a.Status == "installed" {
			next = append(next, "restart "+a.Agent+" so it starts `loams mcp serve`; `loams mcp doctor` checks it")
		}
	}
	next = append(next, "`loams docs search \"getting started\"` and `loams docs snippet --engine qdrant --language python --task search`",
		"`loams stack describe` shows the endpoints; `loams stack stop` when you are done")
	f.say("\nNext:")
	for _, n := range next {
		f.say("  - %s", n)
	}
	return nil
}
