package output

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// wrapProse fills lines of at most width cells, breaking only at spaces and
// after path separators: a path or a command is never cut mid-word (a
// hyphen is not a break, `loams-stack-dev` stays whole). A piece wider
// than width gets a line of its own and overflows it, which reads better
// than a cut name.
func wrapProse(s string, width int) []string {
	if width <= 0 || lipgloss.Width(s) <= width {
		return []string{s}
	}
	var lines []string
	var line strings.Builder
	lineW := 0
	flush := func() {
		if t := strings.TrimRight(line.String(), " "); t != "" || lines == nil {
			lines = append(lines, t)
		}
		line.Reset()
		lineW = 0
	}
	for _, piece := range pieces(s) {
		w := lipgloss.Width(strings.TrimRight(piece, " "))
		if lineW > 0 && lineW+w > width {
			flush()
			piece = strings.TrimLeft(piece, " ")
		}
		line.WriteString(piece)
		lineW += lipgloss.Width(piece)
	}
	flush()
	return lines
}

// pieces splits s after each run of spaces and after each path separator,
// so that joining them gives s back.
func pieces(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '/' || s[i] == '\\':
			out = append(out, s[start:i+1])
			start = i + 1
		case s[i] == ' ' && (i+1 == len(s) || s[i+1] != ' '):
			out = append(out, s[start:i+1])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
