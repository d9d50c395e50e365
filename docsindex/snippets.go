package docsindex

import (
	"path"
	"sort"
	"strings"
)

// A Snippet is a runnable example from docs/snippets/<engine>/<language>/<task>.<ext>.
type Snippet struct {
	Engine   string   `json:"engine"`
	Language string   `json:"language"`
	Task     string   `json:"task"`
	Code     string   `json:"code"`
	Packages []string `json:"packages"`
	Env      []string `json:"env"`
	DocURL   string   `json:"doc_url"`
	Doc      string   `json:"-"` // the guide it belongs to (front matter `doc:`)
	Path     string   `json:"-"`

	doc int // its section's number in the index
}

func (s Snippet) key() string { return s.Engine + "/" + s.Language + "/" + s.Task }

// parseSnippet reads the path and the front matter: the leading comment
// lines `packages:`, `env:` and `doc:` (after a //go:build line in Go).
func parseSnippet(p, src string) (Snippet, bool) {
	parts := strings.Split(strings.TrimPrefix(p, "snippets/"), "/")
	if len(parts) != 3 {
		return Snippet{}, false
	}
	s := Snippet{Engine: parts[0], Language: parts[1], Task: strings.TrimSuffix(parts[2], path.Ext(parts[2])),
		Code: src, Path: p, Packages: []string{}, Env: []string{}}
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "//go:build") || line == "" {
			continue
		}
		text, ok := commentText(line)
		if !ok {
			break // the front matter ends at the first line of code
		}
		key, val, ok := strings.Cut(text, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(key) {
		case "packages":
			s.Packages = splitList(val)
		case "env":
			s.Env = splitList(val)
		case "doc":
			s.Doc = strings.TrimSpace(val)
			s.DocURL = docURL(s.Doc, "")
		}
	}
	return s, true
}

func commentText(line string) (string, bool) {
	for _, prefix := range []string{"#!", "//", "#", "--"} {
		if strings.HasPrefix(line, prefix) {
			if prefix == "#!" {
				return "", true
			}
			return strings.TrimSpace(strings.TrimPrefix(line, prefix)), true
		}
	}
	return "", false
}

func splitList(v string) []string {
	out := []string{}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// snippetSection indexes a snippet beside the guides.
func snippetSection(s Snippet) Section {
	return Section{Path: s.Path, TitlePath: []string{"Snippets", s.Engine + " " + s.Language + " " + strings.ReplaceAll(s.Task, "_", " ")}, Body: s.Code}
}

// Combos lists what exists as engine/language/task, sorted.
func combos(snips map[string]Snippet) []string {
	var out []string
	for k := range snips {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// docURL is the published address of a docs path and heading.
func docURL(p, anchor string) string {
	u := "https://loams.dev/docs/" + strings.TrimSuffix(p, ".md")
	if anchor != "" {
		u += "#" + anchor
	}
	return u
}
