package commands

import (
	"slices"
	"strings"

	"loams.dev/cli/internal/typo"
)

// suggestFlag names the flag someone meant by an unknown one: first a
// synonym people bring from other tools or other loams verbs (`--tail` is
// our `--lines`; `--name` on most verbs is `--stack`, and the other way
// round), then the one flag that has the typed word as one of its words
// (`--port` is `--port-base`), then the closest spelling. Only long flags
// of the command are offered: a one-letter alias (`-o`) is never what a
// mistyped long flag meant, and `--o` is not a flag.
func suggestFlag(typed string, flags []string) string {
	var long []string
	for _, fl := range flags {
		if len(fl) > 1 && !slices.Contains(long, fl) {
			long = append(long, fl)
		}
	}
	for _, syn := range flagSynonyms(typed) {
		if slices.Contains(long, syn) {
			return syn
		}
	}
	var withWord []string
	for _, fl := range long {
		if slices.Contains(strings.Split(fl, "-"), typed) {
			withWord = append(withWord, fl)
		}
	}
	if len(withWord) == 1 {
		return withWord[0]
	}
	return suggest(typed, long)
}

// flagSynonyms maps a flag spelled as other tools spell it to ours.
func flagSynonyms(typed string) []string {
	switch typed {
	case "tail", "n", "lines":
		return []string{"lines"}
	case "name":
		return []string{"stack"}
	case "stack":
		return []string{"name"}
	case "format":
		return []string{"output"}
	case "json":
		return []string{"output"}
	case "force":
		return []string{"yes"}
	case "dir", "cwd", "project":
		return []string{"project-dir"}
	}
	return nil
}

// suggest returns the candidate closest to s by edit distance, when it is
// close enough to be a plausible typo; "" otherwise.
func suggest(s string, candidates []string) string {
	best, bestD := "", len(s)/2+2
	for _, c := range candidates {
		if d := typo.Distance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
