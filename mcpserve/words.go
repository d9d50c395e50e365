package mcpserve

import (
	_ "embed"
	"encoding/json"
	"strings"
	"text/template"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/internal/mcptools"
)

// instructionsTemplate is what initialize and server/discover tell the
// model: every tool it names is one the entry enables, and where a left-out
// tool would help it says which command to ask the user for.
//
//go:embed instructions.md
var instructionsTemplate string

// words renders text for the model under this server's access mode.
func (s *Server) words() mcptools.Words { return mcptools.WordsFor(s.opts.Access.Tools) }

// Instructions are the server's instructions under its access mode.
func (s *Server) Instructions() string { return renderForMode(instructionsTemplate, s.words(), nil) }

// renderForMode executes a template that asks `has "TOOL"` and `ask
// "TOOL"`, then passes the result through the mode's rewriting, so a
// sentence the template forgot to guard cannot name a left-out tool.
func renderForMode(text string, w mcptools.Words, data any) string {
	t := template.Must(template.New("").Funcs(template.FuncMap{
		"has": w.Has,
		"ask": func(tool string) string { return w.AskUser(tool, nil) },
	}).Parse(text))
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		panic(err) // the templates are embedded: every test renders them
	}
	return w.Text(b.String())
}

// forMode is a tool definition as the mode shows it: a description that
// names a left-out tool names the user's command instead.
func (s *Server) forMode(def *mcp.Tool) *mcp.Tool {
	w := s.words()
	if d := w.Text(def.Description); d != def.Description {
		c := *def
		c.Description = d
		return &c
	}
	return def
}

// resultForMode rewrites the message and hint of a failed call so that
// they name only tools the mode enables (the hints are written below both
// faces, naming whichever tool would help).
func (s *Server) resultForMode(res *mcp.CallToolResult) *mcp.CallToolResult {
	w := s.words()
	if res == nil || !res.IsError || w.Disabled() == nil {
		return res
	}
	raw, ok := res.StructuredContent.(json.RawMessage)
	var body toolError
	if !ok || json.Unmarshal(raw, &body) != nil || body.Error == "tool_disabled" {
		return res // a refused call of a left-out tool answers about that tool
	}
	hint, msg := w.Text(body.Hint), w.Text(body.Message)
	if hint == body.Hint && msg == body.Message {
		return res
	}
	body.Hint, body.Message = hint, msg
	out := structured(body)
	out.IsError, out.Meta = true, res.Meta
	return out
}
