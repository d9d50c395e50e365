package commands

import (
	"os"
	"path/filepath"
	"slices"

	"loams.dev/cli/internal/output"
	"loams.dev/cli/pkgadd"
)

// printInit shows what init did and what to do next: the summary on
// stdout, the next steps on stderr (json mode: the result alone; text
// mode: records only, one field per cell).
func printInit(f *Factory, res *initResult, projectDir string) error {
	d := res.Stack.Description
	var rows, text [][]string
	for _, s := range res.Steps {
		line := s.Status + ": " + s.Message
		if s.Name == "stack" && d.State != "absent" && s.Status != "done" {
			line += " (" + d.Name + " is " + d.State + ")"
		}
		rows = append(rows, []string{s.Name, line})
		text = append(text, []string{"step", s.Name, s.Status}) // the why is prose: table and json
		if s.Name == "stack" && d.State != "absent" {
			rows = append(rows, engineRows(d, "  ")...)
		}
	}
	text = append(text, []string{"profile", res.Profile}, []string{"stack", d.Name, d.State})
	text = append(text, endpointText(d)...)
	if res.EnvFile != nil {
		text = append(text, []string{"env_file", *res.EnvFile})
	}
	for _, a := range res.Agents {
		text = append(text, []string{"agent", a.Agent, a.Status})
	}
	for _, c := range res.Changes {
		text = append(text, []string{"change", c})
	}
	if err := f.Printer().Print(output.View{JSON: res, Rows: rows, TextRows: text}); err != nil || f.Globals.Output != output.Table {
		return err
	}
	f.say("\nNext:")
	for _, n := range initNext(res, snippetLanguage(projectDir)) {
		f.say("  - %s", n)
	}
	return nil
}

// initNext are the next steps for what init did and did not do.
func initNext(res *initResult, language string) []string {
	var next []string
	if res.EnvFile != nil {
		next = append(next, "your app reads LOAMS_URL and LOAMS_API_KEY from "+*res.EnvFile)
	}
	for _, a := range res.Agents {
		if a.Status == "installed" {
			next = append(next, "restart "+a.Agent+" so it starts `loams mcp serve`; `loams mcp doctor` checks it")
		}
	}
	next = append(next, "`loams docs search \"getting started\"` and `loams docs snippet --engine qdrant --language "+language+" --task search`")
	if res.Stack.State == "absent" {
		// No stack (declined, or no server): nothing to describe or stop.
		return append(next, "`loams init` again once you want the local stack (it finishes what is left)")
	}
	return append(next, "`loams stack describe "+res.Stack.Name+"` shows the endpoints; `loams stack stop "+res.Stack.Name+"` when you are done")
}

// snippetLanguage is the snippet language of the project in dir: its
// package manager's language when the docs have snippets in it, else
// python (the language of most Loams examples).
func snippetLanguage(dir string) string {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	found, _ := pkgadd.Detect(filepath.Clean(dir), "") // only the language matters here
	for _, fd := range found {
		if fd.Language == "typescript" {
			// A plain `npm init -y` app runs JavaScript: its snippets run
			// as pasted under node; TypeScript's need a compiler.
			if _, err := os.Stat(filepath.Join(dir, "tsconfig.json")); err != nil {
				return "javascript"
			}
		}
		if slices.Contains([]string{"typescript", "python", "go"}, fd.Language) {
			return fd.Language
		}
	}
	return "python"
}
