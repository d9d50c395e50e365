package commands

import "strings"

// describe builds a help description ending in an Examples block; the tree
// test insists every command has one.
func describe(text string, examples ...string) string {
	var b strings.Builder
	b.WriteString(text)
	if len(examples) > 0 {
		if text != "" {
			b.WriteString("\n\n")
		}
		b.WriteString("Examples:")
		for _, e := range examples {
			b.WriteString("\n  $ " + e)
		}
	}
	return b.String()
}
