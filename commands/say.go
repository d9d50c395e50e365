package commands

import (
	"fmt"

	"loams.dev/cli/internal/inert"
)

// Output for people: what a command did, on stderr, and small renderings shared by verbs.

// say tells a person what a command did, on stderr (stdout stays for data).
func (f *Factory) say(format string, args ...any) {
	if !f.Globals.Quiet && !f.JSON() { // json: the document says it; warnings go through warn
		f.IO.Say("%s", inert.String(fmt.Sprintf(format, args...))) // it may quote a server or a file
	}
}

// orDash stands in for an empty cell.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// yesNo renders a bool for a table.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
