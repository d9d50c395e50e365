package docsindex

import (
	"strings"
	"unicode"
)

// excerptLen is the most text a result shows of its section.
const excerptLen = 300

// excerpt is up to 300 characters of body, as plain text, around the
// first place where a query word (or its stem) appears, cut on word
// boundaries.
func excerpt(body string, words []string) string {
	text := plainText(body)
	if len(text) <= excerptLen {
		return text
	}
	lower := strings.ToLower(text)
	at := -1
	for _, w := range words {
		w = strings.ToLower(strings.Trim(w, ".,:;!?\"'`()"))
		for _, form := range []string{w, stem(w)} {
			if len(form) < 2 {
				continue
			}
			if i := strings.Index(lower, form); i >= 0 && (at < 0 || i < at) {
				at = i
			}
		}
	}
	// The window is in bytes, which bounds the runes; two are kept for the
	// ellipses that mark the cuts.
	const window = excerptLen - 2
	start := 0
	if at > window/3 {
		start = at - window/3
	}
	end := min(start+window, len(text))
	if end == len(text) {
		start = max(end-window, 0)
	}
	// Snap inwards to word boundaries and mark the cuts.
	for start > 0 && start < end && !unicode.IsSpace(rune(text[start-1])) {
		start++
	}
	for end < len(text) && end > start && !unicode.IsSpace(rune(text[end])) {
		end--
	}
	out := strings.TrimSpace(text[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}

// plainText flattens Markdown to one line of prose for an excerpt: fences,
// table rules, heading marks, emphasis and backticks go; table cells are
// separated by " · ". Code keeps its words, minus the fence.
func plainText(md string) string {
	var b strings.Builder
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```"), strings.Trim(t, "|-: ") == "" && strings.Contains(t, "-"):
			continue
		case strings.HasPrefix(t, "|"):
			cells := strings.Split(strings.Trim(t, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			t = strings.Join(cells, " · ")
		case strings.HasPrefix(t, "#"):
			t = strings.TrimLeft(t, "# ")
		}
		t = strings.NewReplacer("`", "", "**", "", "__", "").Replace(t)
		b.WriteString(t)
		b.WriteByte(' ')
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
