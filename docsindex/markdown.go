package docsindex

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// A Section is the unit of retrieval: a heading and its body up to the next
// heading of the same or a higher level.
type Section struct {
	Path      string   // guides/stacks.md
	Anchor    string   // port-conflicts
	Level     int      // the heading's level (## is 2); 0 before the first heading and for snippets
	TitlePath []string // Stacks › Ports › Port conflicts
	Body      string
	// Asks are the questions the section answers, in askers' words, from
	// the comment under its heading (asks.go): indexed, never shown.
	Asks string
}

// Title is the page's title (its first heading).
func (s Section) Title() string { return s.TitlePath[0] }

// headingRE is compiled on first use: package-level regexps cost every
// process at start, `loams version` and `mcp serve` included.
var headingRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(#{1,6})\s+(.+?)\s*#*\s*$`) })

// splitSections cuts one Markdown page into sections. Text before the first
// heading belongs to a section titled after the file. Headings inside code
// fences are code, not headings.
func splitSections(path, src string) []Section {
	var out []Section
	var stack []string // titles by level
	anchors := map[string]int{}
	cur := &Section{Path: path, TitlePath: []string{titleFromPath(path)}}
	var body strings.Builder
	inFence := false
	emit := func() {
		cur.Body = strings.TrimSpace(body.String())
		if cur.Body != "" || cur.Anchor != "" {
			out = append(out, *cur)
		}
		body.Reset()
	}
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSuffix(lines[i], "\r")
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		m := headingRE().FindStringSubmatch(line)
		if inFence || m == nil {
			body.WriteString(line)
			body.WriteByte('\n')
			continue
		}
		emit()
		level, title := len(m[1]), strings.TrimSpace(m[2])
		if level > len(stack) {
			for len(stack) < level-1 {
				stack = append(stack, "")
			}
			stack = append(stack, title)
		} else {
			stack = append(stack[:level-1], title)
		}
		var tp []string
		for _, t := range stack {
			if t != "" {
				tp = append(tp, t)
			}
		}
		// A repeated heading gets -1, -2… as on GitHub, so every anchor
		// names one section.
		a := anchor(title)
		if n := anchors[a]; n > 0 {
			anchors[a] = n + 1
			a += "-" + strconv.Itoa(n)
		} else {
			anchors[a] = 1
		}
		cur = &Section{Path: path, Anchor: a, Level: level, TitlePath: tp}
		if asks, next, ok := asksAt(lines, i+1); ok {
			cur.Asks, i = asks, next-1
		}
	}
	emit()
	return out
}

// anchor is GitHub's heading slug: lower case, spaces to dashes, most
// punctuation dropped.
func anchor(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func titleFromPath(path string) string {
	base := path[strings.LastIndex(path, "/")+1:]
	base = strings.TrimSuffix(base, ".md")
	return strings.ReplaceAll(base, "-", " ")
}

// URI names the section as an MCP resource: loams://docs/<path>#<anchor>.
func (s Section) URI() string {
	if s.Anchor == "" {
		return URIPrefix + s.Path
	}
	return URIPrefix + s.Path + "#" + s.Anchor
}

// Markdown is the section as a reader gets it: its heading and body with
// line breaks and code fences intact; a snippet is one fenced block.
func (s Section) Markdown() string {
	if lang, ok := snippetLanguage(s.Path); ok {
		return "```" + lang + "\n" + strings.TrimRight(s.Body, "\n") + "\n```\n"
	}
	if s.Level == 0 {
		return s.Body + "\n"
	}
	return strings.Repeat("#", s.Level) + " " + s.TitlePath[len(s.TitlePath)-1] + "\n\n" + s.Body + "\n"
}

// snippetLanguage is the language directory of a snippet path
// (snippets/<engine>/<language>/<task>.<ext>), the code fence's info string.
func snippetLanguage(p string) (string, bool) {
	parts := strings.Split(p, "/")
	if len(parts) != 4 || parts[0] != "snippets" {
		return "", false
	}
	return parts[2], true
}
