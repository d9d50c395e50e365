package commands

import (
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"golang.org/x/term"
)

// Fitting text to the terminal.

// termWidth is the width to lay docs out in: COLUMNS when set, else the
// terminal's; 0 when stdout is not a terminal (no layout: pipes get it all).
func (f *Factory) termWidth() int {
	if n, err := strconv.Atoi(f.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if !f.IO.StdoutTTY {
		return 0
	}
	if out, ok := f.IO.Out.(*os.File); ok {
		if w, _, err := term.GetSize(int(out.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return 80
}

// fit cuts s to width display cells, marking the cut with an ellipsis.
func fit(s string, width int) string {
	if lipgloss.Width(s) <= width {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 && lipgloss.Width(string(rs))+1 > width {
		rs = rs[:len(rs)-1]
	}
	return strings.TrimRight(string(rs), " ") + "…"
}
