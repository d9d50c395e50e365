// Package output renders a command's result in the three formats of the CLI
// contract: table (styled for people), json (one document) and text (TSV).
// Every command prints through Printer.Print, so the formats cannot drift.
package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/inert"
	"loams.dev/cli/internal/plainjson"
	"loams.dev/cli/internal/redact"
)

// Format is the value of --output.
type Format string

const (
	Table Format = "table"
	JSON  Format = "json"
	Text  Format = "text"
)

// ParseFormat validates an --output value.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case Table, JSON, Text:
		return f, nil
	}
	return "", errs.New(errs.Usage, "use --output table, json or text", "unknown output format %q", s)
}

// View is one result, ready for any format.
type View struct {
	// JSON is the document printed by --output json: a struct or map with
	// snake_case keys, never a bare list.
	JSON any
	// Header names the table's columns. With no Header, Rows are a
	// key/value block (two cells a row).
	Header []string
	Rows   [][]string
	// TextRows, when set, replace Rows (and Raw) in text mode: the same
	// records with machine values (RFC 3339 times, integers, one field per
	// cell, empty for none) where the table shows them for people.
	TextRows [][]string
	// Raw, when set, is printed verbatim in table and text modes
	// (file formats, code ready to paste).
	Raw string
	// Empty is printed in table mode when there are no rows.
	Empty string
	// Wrap names the free-text column that wraps when the table is wider
	// than the terminal; "" = the widest column whose cells hold prose
	// (spaces). No other column is ever cut or wrapped.
	Wrap string
}

// Printer writes views to out in one format.
type Printer struct {
	Format Format
	// Warnings, when set, gives the warnings to carry in a json document
	// as `warnings` (the rule that stderr stays one JSON document).
	Warnings func() []string
	out      io.Writer
	style    styles
	width    int // 0: no limit (a pipe)
}

// WithWidth makes tables fit width columns (COLUMNS, or the terminal's);
// 0 leaves them as wide as their cells.
func (p *Printer) WithWidth(width int) *Printer {
	p.width = width
	return p
}

type styles struct {
	header, key, dim lipgloss.Style
	state            map[string]lipgloss.Style
}

// NewPrinter binds styles to out once; color decides whether they emit any.
func NewPrinter(format Format, out io.Writer, color bool) *Printer {
	r := lipgloss.NewRenderer(out)
	if color {
		r.SetColorProfile(termenv.ANSI256)
	} else {
		r.SetColorProfile(termenv.Ascii)
	}
	// Every byte printed passes the redactor: a server log tail or a
	// message quoting a file can hold a key (see internal/redact).
	out = redact.Writer{W: out}
	green, yellow, red := r.NewStyle().Foreground(lipgloss.Color("2")), r.NewStyle().Foreground(lipgloss.Color("3")), r.NewStyle().Foreground(lipgloss.Color("1"))
	return &Printer{Format: format, out: out, style: styles{
		header: r.NewStyle().Bold(true),
		key:    r.NewStyle().Bold(true),
		dim:    r.NewStyle().Faint(true),
		state: map[string]lipgloss.Style{
			"running": green, "connected": green, "ok": green,
			"starting": yellow, "unhealthy": yellow, "stopped": r.NewStyle().Faint(true),
			"crashed": red, "failed": red,
		},
	}}
}

// Print renders v. Table and text show every cell and Raw inert (controls
// escaped, internal/inert): a value may come from a server, a file loams
// did not write or a log, and reaches a terminal.
func (p *Printer) Print(v View) error {
	if p.Format != JSON {
		v = inertView(v)
	}
	switch p.Format {
	case JSON:
		if p.Warnings != nil {
			return WriteJSON(p.out, withWarnings(v.JSON, p.Warnings()))
		}
		return WriteJSON(p.out, v.JSON)
	case Text:
		rows := v.Rows
		if v.TextRows != nil {
			rows = v.TextRows
		} else if v.Raw != "" {
			_, err := io.WriteString(p.out, v.Raw)
			return err
		}
		for _, row := range rows {
			if _, err := fmt.Fprintln(p.out, strings.Join(cleanTSV(row), "\t")); err != nil {
				return err
			}
		}
		return nil
	}
	if v.Raw != "" {
		_, err := io.WriteString(p.out, v.Raw)
		return err
	}
	if len(v.Rows) == 0 {
		if v.Empty != "" {
			_, err := fmt.Fprintln(p.out, p.style.dim.Render(v.Empty))
			return err
		}
		return nil
	}
	if v.Header == nil {
		return p.keyValues(v.Rows)
	}
	return p.table(v.Header, v.Rows, v.Wrap)
}

func inertView(v View) View {
	v.Raw, v.Empty = inert.String(v.Raw), inert.String(v.Empty)
	v.Header = inert.Strings(v.Header)
	rows := func(rs [][]string) [][]string {
		if rs == nil {
			return nil
		}
		out := make([][]string, len(rs))
		for i, r := range rs {
			out[i] = inert.Strings(r)
		}
		return out
	}
	v.Rows, v.TextRows = rows(v.Rows), rows(v.TextRows)
	return v
}

// WriteJSON writes exactly one JSON document and a newline, with every
// known secret redacted. No HTML escaping: the output is read by people,
// scripts and models, never pasted into HTML, and "\u003credacted\u003e"
// helps none of them.
func WriteJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(plainjson.EscapeControls(redact.Bytes(b.Bytes())))
	return err
}

func (p *Printer) keyValues(rows [][]string) error {
	width := 0
	for _, r := range rows {
		width = max(width, lipgloss.Width(r[0]))
	}
	for _, r := range rows {
		key := p.style.key.Render(r[0] + ":")
		pad := strings.Repeat(" ", width-lipgloss.Width(r[0]))
		if _, err := fmt.Fprintf(p.out, "%s%s %s\n", key, pad, p.cell(r[0], strings.Join(r[1:], " "))); err != nil {
			return err
		}
	}
	return nil
}

func (p *Printer) table(header []string, rows [][]string, wrapCol string) error {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = lipgloss.Width(h)
	}
	for _, r := range rows {
		for i := range min(len(r), len(widths)) {
			widths[i] = max(widths[i], lipgloss.Width(r[i]))
		}
	}
	free := p.fit(header, rows, widths, wrapCol)
	line := func(cells []string, render func(col int, s string) string) error {
		var b strings.Builder
		for i := range widths {
			s := ""
			if i < len(cells) {
				s = cells[i]
			}
			if i == len(widths)-1 {
				b.WriteString(render(i, s))
				break
			}
			b.WriteString(render(i, s))
			b.WriteString(strings.Repeat(" ", max(widths[i]-lipgloss.Width(s), 0)+2))
		}
		_, err := fmt.Fprintln(p.out, strings.TrimRight(b.String(), " "))
		return err
	}
	upper := make([]string, len(header))
	for i, h := range header {
		upper[i] = strings.ToUpper(h)
	}
	if err := line(upper, func(_ int, s string) string { return p.style.header.Render(s) }); err != nil {
		return err
	}
	for _, r := range rows {
		// Each narrowed column's cell becomes lines; the row is as tall as
		// its tallest cell, the other cells print on its first line.
		parts := map[int][]string{}
		height := 1
		for _, c := range free {
			if c < len(r) {
				parts[c] = wrapProse(r[c], widths[c])
				height = max(height, len(parts[c]))
			}
		}
		for n := range height {
			cells := r
			if n > 0 {
				cells = make([]string, len(r))
			}
			if len(parts) > 0 {
				cells = append([]string(nil), cells...)
				for c, ls := range parts {
					cells[c] = ""
					if n < len(ls) {
						cells[c] = ls[n]
					}
				}
			}
			if err := line(cells, func(col int, s string) string {
				if n > 0 {
					return s
				}
				return p.cell(header[col], s)
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// minFree is the narrowest a wrapped column gets: below it the line
// overflows instead, as words one per line read worse than a long line.
const minFree = 16

// fit narrows the prose columns (cells with spaces; and wrapCol) so the
// table's lines fit p.width, and returns them. The widest is narrowed
// first, down to minFree each: a 200-column fix is not left whole while the
// message is squeezed. Ids, states, URLs and commands without spaces are
// never cut.
func (p *Printer) fit(header []string, rows [][]string, widths []int, wrapCol string) []int {
	total := 2 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	if p.width <= 0 || total <= p.width {
		return nil
	}
	var free []int
	floor := map[int]int{}
	for i, h := range header {
		if h == wrapCol || prose(rows, i) {
			free = append(free, i)
			floor[i] = max(min(minFree, widths[i]), lipgloss.Width(h))
		}
	}
	for total > p.width {
		widest := -1
		for _, i := range free {
			if widths[i] > floor[i] && (widest < 0 || widths[i] > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break // every prose column at its floor: the line overflows
		}
		widths[widest]--
		total--
	}
	return free
}

// prose reports whether column i holds words (a cell with a space).
func prose(rows [][]string, i int) bool {
	for _, r := range rows {
		if i < len(r) && strings.Contains(strings.TrimSpace(r[i]), " ") {
			return true
		}
	}
	return false
}

// cell colours a state-like value; everything else is printed as is.
func (p *Printer) cell(column, value string) string {
	if c := strings.ToLower(column); c == "state" || c == "status" {
		if st, ok := p.style.state[value]; ok {
			return st.Render(value)
		}
	}
	return value
}

// cleanTSV keeps one record per line: tabs and newlines inside a cell would
// break `cut` and `awk`.
func cleanTSV(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(c)
	}
	return out
}

// withWarnings adds `"warnings": [...]` to a document that is a JSON
// object, keeping its own keys in their order (a struct's fields, not
// sorted as a map would be).
func withWarnings(doc any, warnings []string) any {
	if len(warnings) == 0 {
		return doc
	}
	b, err := json.Marshal(doc)
	w, err2 := json.Marshal(warnings)
	if err != nil || err2 != nil || len(b) < 2 || b[0] != '{' {
		return doc
	}
	body := b[1 : len(b)-1]
	out := append([]byte{'{'}, body...)
	if len(body) > 0 {
		out = append(out, ',')
	}
	out = append(append(append(out, `"warnings":`...), w...), '}')
	return json.RawMessage(out)
}
