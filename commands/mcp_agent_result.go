package commands

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/agents"
	"loams.dev/cli/internal/inert"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/internal/shellquote"
)

// How mcp install and uninstall render an agent's result, and what they share with init and mcp doctor.

// notes go to stderr for a person; JSON output carries them in the document.
func (f *Factory) notes(notes []string) {
	if f.JSON() {
		return
	}
	for _, n := range notes {
		fmt.Fprintf(f.IO.ErrOut, "note: %s\n", inert.String(n))
	}
}

// agentResultView renders one install/uninstall result; json is doc.
func agentResultView(res *agents.Result, doc any) output.View {
	if res.DryRun {
		return output.View{JSON: doc, Raw: dryRunText(res)}
	}
	state := "unchanged"
	if res.Changed {
		state = "changed"
	}
	if res.Restored {
		state = "restored to its original bytes"
	}
	rows := [][]string{{"agent", res.Agent}, {"scope", res.Scope}, {"via", via(res)}, {"config", res.Path + " (" + state + ")"},
		{"entries", strings.Join(res.Entries, ", ")}}
	text := [][]string{{"agent", res.Agent}, {"scope", res.Scope}, {"via", res.Via}, {"config", res.Path},
		{"state", strings.Fields(state)[0]}, {"entries", strings.Join(res.Entries, ",")}}
	if len(res.Command) > 0 {
		rows = append(rows, []string{"command", shellquote.Join(res.Command)})
		text = append(text, []string{"command", shellquote.Join(res.Command)})
	}
	if res.Skill != nil {
		rows = append(rows, []string{"skill", res.Skill.Path + " (" + res.Skill.State + ")"})
		text = append(text, []string{"skill", res.Skill.Path}, []string{"skill_state", res.Skill.State})
	}
	if res.Backup != "" {
		rows = append(rows, []string{"backup", res.Backup})
		text = append(text, []string{"backup", res.Backup})
	}
	return output.View{JSON: doc, Rows: rows, TextRows: text}
}

func via(res *agents.Result) string {
	if res.Via == "cli" {
		return "the agent's CLI"
	}
	return "file edit"
}

func dryRunText(res *agents.Result) string {
	var b strings.Builder
	if !res.Changed && res.Skill == nil {
		return "# " + res.Path + ": nothing to change\n"
	}
	if res.Skill != nil {
		b.WriteString("# skill " + res.Skill.Path + ": " + res.Skill.State + "\n")
	}
	for _, c := range res.Commands {
		b.WriteString(shellquote.Join(c) + "\n")
	}
	b.WriteString(res.Diff)
	return b.String()
}

// projectDirFlag is --project-dir for the verbs whose project scopes need
// one when they do not run inside the project; dst, when not nil, receives it.
func projectDirFlag(dst *string) *cli.StringFlag {
	return &cli.StringFlag{Name: "project-dir", Usage: "project directory of the project scopes (default: the nearest project root)", Destination: dst}
}
