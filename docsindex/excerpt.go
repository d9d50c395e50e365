package docsindex

import (
	"strings"
	"unicode"
)

// excerptLen is the most text a result shows of its section.
const excerptLen = 300

// excerpt is up to 300 characters of body around the first place where a
// query word (or its stem) appears, cut on word boundaries.
func excerpt(body string, words []string) string {
	text := strings.Join(strings.Fields(body), " ")
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
