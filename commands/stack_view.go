package commands

// How a stack is shown: describe, start, stop and create render it here.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"loams.dev/cli/internal/output"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// stackView is a stack as the CLI shows it: the description, plus
// whether the service manager runs it (`stack autostart`), which the
// stack package does not know about.
type stackView struct {
	*stack.Description
	Autostart string `json:"autostart"` // on | off
}

// describeView renders a stack as a key/value block plus its endpoints.
func describeView(d *stack.Description) ([][]string, string) {
	rows := [][]string{{"name", d.Name}, {"state", d.State}}
	if d.PID != nil {
		rows = append(rows, []string{"pid", fmt.Sprint(*d.PID)}, []string{"started", d.StartedAt.Format("2006-01-02 15:04:05Z")})
	}
	rows = append(rows, engineRows(d, "")...)
	rows = append(rows, []string{"server", d.ServerVersion + " (" + d.ServerBinary + ")"})
	rows = append(rows, serverRows(d.Edition, d.Services)...)
	rows = append(rows, []string{"data", d.DataDir}, []string{"log", d.LogPath})
	tail := ""
	if len(d.LogTail) > 0 {
		tail = strings.Join(d.LogTail, "\n")
	}
	return rows, tail
}

// describeText is describe for -o text: one field per cell, keys as in
// the json, RFC 3339 times, and one row per endpoint
// (endpoint ENGINE KIND URL) so `awk -F'\t'` can pick any of them.
func describeText(d *stack.Description) [][]string {
	rows := [][]string{{"name", d.Name}, {"state", d.State}}
	if d.PID != nil {
		rows = append(rows, []string{"pid", fmt.Sprint(*d.PID)}, []string{"started_at", d.StartedAt.UTC().Format(time.RFC3339)})
	}
	rows = append(rows, endpointText(d)...)
	return append(rows, []string{"server_version", d.ServerVersion}, []string{"server_binary", d.ServerBinary},
		[]string{"data_dir", d.DataDir}, []string{"log_path", d.LogPath})
}

func endpointText(d *stack.Description) [][]string {
	var rows [][]string
	for _, e := range d.Engines {
		for _, k := range slices.Sorted(maps.Keys(e.Endpoints)) {
			rows = append(rows, []string{"endpoint", e.Engine, k, e.Endpoints[k]})
		}
	}
	return rows
}

// engineRows is one row per engine: its name (after indent) and its
// endpoints, labelled when it has more than one.
func engineRows(d *stack.Description, indent string) [][]string {
	var rows [][]string
	for _, e := range d.Engines {
		var eps []string
		for _, k := range slices.Sorted(maps.Keys(e.Endpoints)) {
			if len(e.Endpoints) == 1 {
				eps = append(eps, e.Endpoints[k])
			} else {
				eps = append(eps, k+" "+e.Endpoints[k])
			}
		}
		rows = append(rows, []string{indent + e.Engine, strings.Join(eps, "  ")})
	}
	return rows
}

// stackJSON is a stack's description with the target it was chosen by.
type stackJSON struct {
	*stack.Description
	Autostart string           `json:"autostart"` // on | off (stack autostart)
	Target    workspace.Target `json:"target"`
	// Bound is the loams.toml that create bound to the stack.
	Bound string     `json:"bound,omitempty"`
	Clone *cloneJSON `json:"clone,omitempty"` // create --from
}

func (f *Factory) printStack(d *stack.Description, t workspace.Target) error {
	return f.printStackJSON(stackJSON{Description: d, Target: t})
}

func (f *Factory) printStackJSON(j stackJSON) error {
	d := j.Description
	rows, tail := describeView(d)
	v := stackView{Description: d, Autostart: f.autostart().State(d.Name)}
	rows = append(rows, []string{"autostart", v.Autostart})
	text := append(describeText(d), []string{"autostart", v.Autostart})
	j.Autostart = v.Autostart
	if err := f.Printer().Print(output.View{JSON: j, Rows: rows, TextRows: text}); err != nil {
		return err
	}
	if tail != "" && !f.JSON() {
		f.Notice("last lines of %s:\n%s", d.LogPath, tail)
	}
	f.skewNotice(d.ServerVersion, d.Compatibility)
	return nil
}
