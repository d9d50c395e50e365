package docsindex

import (
	"strings"
)

// A guide section may carry, right under its heading, the questions and
// symptoms it answers in the words people ask them in:
//
//	## Bind a stack to a project
//	<!-- asks: link my app to a database; which stack does this folder use; … -->
//
// One sentence of lead cannot hold every way a question is put ("linked",
// "nagging about new versions"), and the body should not be padded with
// them; the comment sits beside the section so whoever edits one sees the
// other. The index reads it as a field of its own (index.go); everything a
// reader is shown has it cut out (Section.Body, Bundle.Read).
const (
	asksOpen  = "<!-- asks:"
	asksClose = "-->"
	// asksMaxLines bounds how far a comment may run before its "-->": one
	// that runs on (a typo, a lost close) is text, never the rest of the page.
	asksMaxLines = 8
	// AsksMaxBytes is the most an asks comment should hold; a test over the
	// guides enforces it. Longer, it stops being a list of questions and
	// starts outweighing the section's own words.
	AsksMaxBytes = 600
)

// asksAt looks for an asks comment starting at lines[i], skipping blank
// lines: it returns the comment's text (without the markers) and the index
// of the first line after it. ok is false when there is none, or it is
// malformed: not closed within asksMaxLines lines, broken by a blank line,
// or followed by text on its closing line.
func asksAt(lines []string, i int) (asks string, next int, ok bool) {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i >= len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[i]), asksOpen) {
		return "", 0, false
	}
	var parts []string
	for j := i; j < len(lines) && j < i+asksMaxLines; j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" {
			return "", 0, false
		}
		if j == i {
			t = strings.TrimPrefix(t, asksOpen)
		}
		if k := strings.Index(t, asksClose); k >= 0 {
			if strings.TrimSpace(t[k+len(asksClose):]) != "" {
				return "", 0, false
			}
			parts = append(parts, strings.TrimSpace(t[:k]))
			return strings.TrimSpace(strings.Join(parts, " ")), j + 1, true
		}
		parts = append(parts, t)
	}
	return "", 0, false
}

// StripAsks removes the asks comments from a whole Markdown page, by the
// same rule splitSections reads them with: right under a heading, outside
// code fences. Everything else, malformed comments included, is kept.
func StripAsks(src string) string {
	if !strings.Contains(src, asksOpen) {
		return src
	}
	lines := strings.Split(src, "\n")
	out := make([]string, 0, len(lines))
	inFence := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		out = append(out, line)
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		if inFence || headingRE().FindStringSubmatch(line) == nil {
			continue
		}
		if _, next, ok := asksAt(lines, i+1); ok {
			// Keep the blank lines before the comment, drop those after it,
			// so the page reads as if it had never been there.
			for i+1 < next && strings.TrimSpace(lines[i+1]) == "" {
				i++
				out = append(out, lines[i])
			}
			i = next - 1
			for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == "" && strings.TrimSpace(out[len(out)-1]) == "" {
				i++
			}
		}
	}
	return strings.Join(out, "\n")
}
