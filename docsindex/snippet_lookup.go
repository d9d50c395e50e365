package docsindex

import (
	"strings"

	"loams.dev/cli/internal/errs"
)

// aliases are what people type for a language or an engine.
var aliases = map[string]string{
	"py": "python", "python3": "python", "ts": "typescript", "js": "typescript", "javascript": "typescript",
	"node": "typescript", "sh": "shell", "bash": "shell", "curl": "shell", "golang": "go",
	"postgres": "pg", "postgresql": "pg", "elasticsearch": "es", "elastic": "es", "rest": "native",
}

// Snippet returns one snippet. An unknown engine, language or task gets a
// "did you mean" for the value given; a known one with no snippet for this
// combination lists what exists beside it.
func (b *Bundle) Snippet(engine, language, task string) (*Snippet, error) {
	if err := b.load(); err != nil {
		return nil, err
	}
	if task == "" {
		task = "connect"
	}
	if s, ok := b.snippets[engine+"/"+language+"/"+task]; ok {
		return &s, nil
	}
	engines, languages, tasks := b.Enums()
	hint := ""
	for _, f := range []struct {
		flag, value string
		known       []string
	}{{"engine", engine, engines}, {"language", language, languages}, {"task", task, tasks}} {
		if !contains(f.known, f.value) {
			hint = f.flag + "s: " + strings.Join(f.known, ", ")
			if guess := closest(f.value, f.known); guess != "" {
				hint = "did you mean " + guess + "? " + hint
			}
			break
		}
	}
	if hint == "" {
		var same []string
		for _, c := range combos(b.snippets) {
			if rest, ok := strings.CutPrefix(c, engine+"/"+language+"/"); ok {
				same = append(same, rest)
			}
		}
		hint = "tasks for " + engine + "/" + language + ": " + strings.Join(same, ", ")
		if len(same) == 0 {
			hint = "no " + language + " snippets for " + engine + " yet; `loams docs search " + engine + " " + language + "` finds the guide"
		}
	}
	return nil, errs.New(errs.SnippetNotFound, hint, "no %s snippet for %s in %s", short(task), short(engine), short(language)).
		With("engine", short(engine)).With("language", short(language)).With("task", short(task))
}

// closest is the known value a mistyped one most likely meant: an alias,
// a prefix ("py"), or one or two letters off ("pyhton").
func closest(v string, known []string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if a, ok := aliases[v]; ok && contains(known, a) {
		return a
	}
	best, bestD := "", 3
	for _, k := range known {
		if len(v) >= 2 && strings.HasPrefix(k, v) {
			return k
		}
		if d := distance(v, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// distance is the Levenshtein distance, for short words.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// short caps a value echoed in an error at 200 characters.
func short(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
