package docsindex

import (
	"strings"
)

// Byte budgets of a search answer: whole sections are returned, best first,
// until MaxBytes of Markdown are used; the rest get excerpts.
const (
	DefaultMaxBytes = 8 << 10
	MinMaxBytes     = 1 << 10
	MaxMaxBytes     = 24 << 10
)

// relevanceFloor leaves out sections scoring under this share of the best
// one: an answer's fourth and fifth sections were often about something
// else that shared a word ("python" in the Flight SQL guide), and each
// costs the model its bytes twice.
const relevanceFloor = 0.3

// Result is one search hit: a whole section (Content) when it fitted the
// budget, else an excerpt.
type Result struct {
	Title   string `json:"title" jsonschema:"the page's title"`
	Path    string `json:"path" jsonschema:"the page in the docs bundle, e.g. guides/engines/qdrant.md"`
	Section string `json:"section" jsonschema:"the section's title path, e.g. Qdrant API › Connect with qdrant-client"`
	URI     string `json:"uri" jsonschema:"the section as an MCP resource: loams://docs/<path>#<anchor>"`
	// PageURI is the page as resources/list names it: hosts that read
	// only exact listed URIs (Gemini CLI) cannot read a #section one.
	PageURI string  `json:"page_uri" jsonschema:"the whole page as an MCP resource, exactly as resources/list names it"`
	URL     string  `json:"url" jsonschema:"the section on the docs website"`
	Score   float64 `json:"score" jsonschema:"relevance; higher is better"`
	Content string  `json:"content,omitempty" jsonschema:"the whole section as Markdown, line breaks and code fences intact"`
	Excerpt string  `json:"excerpt,omitempty" jsonschema:"up to 300 characters of plain text around the match, when the section did not fit max_bytes"`
	// Truncated marks a first section larger than the whole budget, cut on
	// a line boundary; its uri reads it whole.
	Truncated bool `json:"truncated,omitempty" jsonschema:"the content was cut at max_bytes; read uri for the rest"`

	words []string // the query's words, for Summary
}

// Summary is one line of plain text for a table: the excerpt, or an
// excerpt of the content.
func (r Result) Summary() string {
	if r.Excerpt != "" {
		return r.Excerpt
	}
	body := r.Content
	if strings.HasPrefix(body, "#") { // the heading is the Section column already
		_, body, _ = strings.Cut(body, "\n")
	}
	return excerpt(body, r.words)
}

// SearchResult is search_docs' and `loams docs search`'s answer.
type SearchResult struct {
	DocsVersion string   `json:"docs_version" jsonschema:"the docs version: the loams binary's"`
	Results     []Result `json:"results" jsonschema:"best first"`
	Hint        string   `json:"hint,omitempty" jsonschema:"what to try when nothing matched"`
	Truncated   bool     `json:"truncated,omitempty" jsonschema:"true when max_bytes left sections as excerpts, cut one, or dropped some"`
}

// Search ranks the bundle's sections for query and returns up to limit of
// them within maxBytes (DefaultMaxBytes when 0): each section whole if it
// fits what is left of the budget, else an excerpt. The first result is
// never reduced to an excerpt: a section larger than the whole budget is
// cut on a line boundary with its code fence closed.
func (b *Bundle) Search(query string, limit, maxBytes int) (*SearchResult, error) {
	if err := b.load(); err != nil {
		return nil, err
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	res := &SearchResult{DocsVersion: b.version, Results: []Result{}}
	budget := maxBytes
	hits := b.index.Search(query, limit)
	for i, h := range hits {
		if h.Score < relevanceFloor*hits[0].Score {
			break // far below the best: noise that costs the model context
		}
		s := h.Section
		r := Result{Title: s.Title(), Path: s.Path, Section: strings.Join(s.TitlePath, " › "), URI: s.URI(), PageURI: URIPrefix + s.Path,
			URL: docURL(s.Path, s.Anchor), Score: float64(int(h.Score*1000)) / 1000, words: h.Terms}
		md := s.Markdown()
		switch {
		case len(md) <= budget:
			r.Content = md
			budget -= len(md)
		case i == 0:
			r.Content, r.Truncated = cutMarkdown(md, budget, s.URI()), true
			budget -= len(r.Content)
			res.Truncated = true
		default:
			res.Truncated = true
			if r.Excerpt = excerpt(s.Body, h.Terms); len(r.Excerpt) > budget {
				continue // not even the excerpt fits: the section is left out
			}
			budget -= len(r.Excerpt)
		}
		res.Results = append(res.Results, r)
	}
	if len(res.Results) == 0 {
		res.Hint = "nothing matched; try fewer or other words (an engine, a variable name, an error code), or get_sdk_snippet for code"
	}
	return res, nil
}

// cutMarkdown shortens md to at most n bytes on a line boundary, closes a
// code fence left open, and says where the rest is.
func cutMarkdown(md string, n int, uri string) string {
	tail := "\n\n[…cut at max_bytes: read " + uri + " for the whole section]\n"
	const fence = "```\n"
	keep := max(n-len(tail)-len(fence), 0)
	if i := strings.LastIndexByte(md[:min(keep, len(md))], '\n'); i >= 0 {
		keep = i + 1
	} else {
		keep = 0
	}
	out := md[:keep]
	open := false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			open = !open
		}
	}
	if open {
		out += fence
	}
	return out + strings.TrimPrefix(tail, "\n")
}
