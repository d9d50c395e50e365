package commands

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// renderMarkdown lays a docs page out for a terminal: headings bold, code
// blocks coloured but never indented or retabbed (pasted Python must run:
// a two-space margin made it "unexpected indent"), tables aligned, inline code marked, bullets
// as dots. It knows the little Markdown the guides use; anything else is
// printed as written. Code files (snippets) are printed as they are.
func renderMarkdown(md, mimeType string, width int, r *lipgloss.Renderer, color bool) string {
	if mimeType != "text/markdown" {
		return md
	}
	st := newMDStyles(r, color)
	var b strings.Builder
	lines := strings.Split(strings.TrimRight(md, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```"):
			lang := strings.TrimPrefix(t, "```")
			if lang != "" {
				b.WriteString(st.dim.Render("  "+lang) + "\n")
			}
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				if lines[i] == "" {
					b.WriteString("\n")
					continue
				}
				b.WriteString(paint(st.code, lines[i]) + "\n")
			}
		case strings.HasPrefix(t, "#"):
			level := len(t) - len(strings.TrimLeft(t, "#"))
			text := strings.TrimSpace(strings.TrimLeft(t, "#"))
			if level <= 2 {
				text = strings.ToUpper(text[:1]) + text[1:]
			}
			b.WriteString(st.heading.Render(inline(text, st)) + "\n")
		case strings.HasPrefix(t, "|"):
			var rows []string
			for ; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
				rows = append(rows, strings.TrimSpace(lines[i]))
			}
			i--
			b.WriteString(table(rows, width, st))
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "):
			indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
			b.WriteString(indent + "• " + inline(t[2:], st) + "\n")
		case t == "":
			b.WriteString("\n")
		default: // a paragraph: its lines together, so `code` may span two
			para := []string{line}
			for i+1 < len(lines) && plainLine(lines[i+1]) {
				i++
				para = append(para, lines[i])
			}
			b.WriteString(inline(strings.Join(para, "\n"), st) + "\n")
		}
	}
	return b.String()
}

// plainLine is a line that continues a paragraph.
func plainLine(line string) bool {
	t := strings.TrimSpace(line)
	for _, p := range []string{"```", "#", "|", "- ", "* "} {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return t != ""
}

type mdStyles struct{ heading, code, inlineCode, bold, dim lipgloss.Style }

func newMDStyles(r *lipgloss.Renderer, color bool) mdStyles {
	s := mdStyles{r.NewStyle(), r.NewStyle(), r.NewStyle(), r.NewStyle(), r.NewStyle()}
	s.code = s.code.TabWidth(lipgloss.NoTabConversion) // Go's tabs and Makefile recipes stay tabs
	if color {
		s.heading = s.heading.Bold(true).Foreground(lipgloss.Color("6"))
		s.code = s.code.Foreground(lipgloss.Color("3"))
		s.inlineCode = s.inlineCode.Foreground(lipgloss.Color("3"))
		s.bold = s.bold.Bold(true)
		s.dim = s.dim.Faint(true)
	}
	return s
}

// inline styles `code` and **bold**, and shows links as "text (url)".
func inline(s string, st mdStyles) string {
	var b strings.Builder
	for s != "" {
		i := strings.IndexAny(s, "`*[")
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		switch {
		case s[0] == '`':
			if end := strings.IndexByte(s[1:], '`'); end >= 0 {
				b.WriteString(paint(st.inlineCode, s[1:end+1]))
				s = s[end+2:]
				continue
			}
		case strings.HasPrefix(s, "**"):
			if end := strings.Index(s[2:], "**"); end >= 0 {
				b.WriteString(paint(st.bold, s[2:end+2]))
				s = s[end+4:]
				continue
			}
		case s[0] == '[':
			if text, rest, ok := strings.Cut(s[1:], "]("); ok && !strings.Contains(text, "\n") {
				if url, after, ok := strings.Cut(rest, ")"); ok {
					b.WriteString(text + " (" + url + ")")
					s = after
					continue
				}
			}
		}
		b.WriteByte(s[0])
		s = s[1:]
	}
	return b.String()
}

// paint styles each line of s on its own: lipgloss pads a multi-line
// string into a block, which would push a paragraph's next words right.
func paint(style lipgloss.Style, s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return strings.Join(lines, "\n")
}

// table aligns a Markdown table's cells; the rule row becomes a line.
func table(rows []string, width int, st mdStyles) string {
	var cells [][]string
	for _, row := range rows {
		parts := strings.Split(strings.Trim(row, "|"), "|")
		if strings.Trim(row, "|-: ") == "" {
			continue
		}
		for i := range parts {
			parts[i] = inline(strings.TrimSpace(parts[i]), st)
		}
		cells = append(cells, parts)
	}
	var widths []int
	for _, row := range cells {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], lipgloss.Width(c))
		}
	}
	var b strings.Builder
	for n, row := range cells {
		var line strings.Builder
		for i, c := range row {
			line.WriteString("  " + c + strings.Repeat(" ", widths[i]-lipgloss.Width(c)))
		}
		text := strings.TrimRight(line.String(), " ")
		if width > 0 && lipgloss.Width(text) > width {
			text = fit(text, width)
		}
		if n == 0 {
			text = st.bold.Render(text)
		}
		b.WriteString(text + "\n")
	}
	return b.String()
}
