package commands

// suggestFlag names the flag someone meant by an unknown one: first a
// synonym people bring from other tools or other loams verbs (`--tail` is
// our `--lines`; `--name` on most verbs is `--stack`, and the other way
// round), then the closest spelling. Only flags of the command are offered.
func suggestFlag(typed string, flags []string) string {
	for _, syn := range flagSynonyms(typed) {
		for _, fl := range flags {
			if fl == syn {
				return fl
			}
		}
	}
	return suggest(typed, flags)
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
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
