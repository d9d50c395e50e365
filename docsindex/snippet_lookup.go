package docsindex

import (
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/typo"
)

// aliases are what people type for a language or an engine.
var aliases = map[string]string{
	"py": "python", "python3": "python", "ts": "typescript", "js": "javascript", "mjs": "javascript",
	"node": "javascript", "nodejs": "javascript", "sh": "shell", "bash": "shell", "curl": "shell", "golang": "go",
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
		if !slices.Contains(f.known, f.value) {
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
	agent := hint + "; then call get_sdk_snippet again"
	if strings.Contains(hint, "`loams docs search") {
		agent = "no " + language + " snippets for " + engine + " yet: " + errs.ToolCall("search_docs", map[string]any{"query": engine + " " + language})
	}
	return nil, errs.New(errs.SnippetNotFound, hint, "no %s snippet for %s in %s", short(task), short(engine), short(language)).ForAgent(agent).
		With("engine", short(engine)).With("language", short(language)).With("task", short(task))
}

// closest is the known value a mistyped one most likely meant: an alias,
// a prefix ("py"), or one or two letters off ("pyhton").
func closest(v string, known []string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if a, ok := aliases[v]; ok && slices.Contains(known, a) {
		return a
	}
	best, bestD := "", 3
	for _, k := range known {
		if len(v) >= 2 && strings.HasPrefix(k, v) {
			return k
		}
		if d := typo.Distance(v, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// short caps a value echoed in an error at 200 characters.
func short(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
