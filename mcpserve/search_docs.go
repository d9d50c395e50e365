package mcpserve

import (
	"context"
	"fmt"
	"strings"

	"loams.dev/cli/docsindex"
)

type searchDocsInput struct {
	Query    string `json:"query" jsonschema:"words, a variable, flag or error code"`
	Limit    int    `json:"limit,omitempty" jsonschema:"results to return"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"bytes of Markdown to return"`
}

// searchDocsResult is search_docs' structuredContent, written for a model
// to read (spec mcp.md, "What the model reads"): each section once, with
// the two URIs a host can read it by, and nothing the model cannot use
// (the score, the website URL, the path the URIs already carry).
type searchDocsResult struct {
	DocsVersion string          `json:"docs_version" jsonschema:"the docs version: the loams binary's"`
	Results     []searchSection `json:"results" jsonschema:"best first"`
	Hint        string          `json:"hint,omitempty" jsonschema:"what to try when nothing matched"`
	Truncated   bool            `json:"truncated,omitempty" jsonschema:"true when max_bytes left sections as excerpts, cut one, or dropped some"`
}

type searchSection struct {
	Section string `json:"section" jsonschema:"the section's title path, e.g. Qdrant API › Connect with qdrant-client"`
	// PageURI is the page as resources/list names it: hosts that read
	// only exact listed URIs (Gemini CLI) cannot read a #section one.
	PageURI   string `json:"page_uri" jsonschema:"the whole page as an MCP resource, as resources/list names it"`
	URI       string `json:"uri" jsonschema:"the section as an MCP resource: page_uri#anchor"`
	Content   string `json:"content,omitempty" jsonschema:"the whole section as Markdown, line breaks and code fences intact"`
	Excerpt   string `json:"excerpt,omitempty" jsonschema:"plain text around the match, when the section did not fit max_bytes"`
	Truncated bool   `json:"truncated,omitempty" jsonschema:"the content was cut at max_bytes; read uri for the rest"`
}

// Truncate drops the last section, so the result fits the cap.
func (r *searchDocsResult) Truncate() bool {
	if len(r.Results) == 0 {
		return false
	}
	r.Results, r.Truncated = r.Results[:len(r.Results)-1], true
	return true
}

func searchResultForModel(r *docsindex.SearchResult) *searchDocsResult {
	out := &searchDocsResult{DocsVersion: r.DocsVersion, Results: make([]searchSection, 0, len(r.Results)), Hint: r.Hint, Truncated: r.Truncated}
	for _, x := range r.Results {
		out.Results = append(out.Results, searchSection{Section: x.Section, PageURI: x.PageURI, URI: x.URI,
			Content: x.Content, Excerpt: x.Excerpt, Truncated: x.Truncated})
	}
	return out
}

func (s *Server) searchDocsTool() tool {
	return newTool(toolSpec[searchDocsInput, *searchDocsResult]{
		Name:  "search_docs",
		Title: "Search the Loams docs",
		Description: "Search this version's Loams guides and snippets (ports, variables, errors, code) before guessing, " +
			"e.g. {\"query\":\"connect to qdrant from python\"}. Returns the best sections whole, as Markdown, " +
			"up to max_bytes, then excerpts; read a uri for more.",
		Annotations: annotations(readOnly, notDestructive, idempotent, closedWorld),
		Schema: func(sc *jsonschemaSchema) {
			q := sc.Properties["query"]
			q.MinLength, q.MaxLength = intPtr(1), intPtr(500)
			l := sc.Properties["limit"]
			l.Minimum, l.Maximum, l.Default = floatPtr(1), floatPtr(20), []byte("5")
			m := sc.Properties["max_bytes"]
			m.Minimum, m.Maximum = floatPtr(docsindex.MinMaxBytes), floatPtr(docsindex.MaxMaxBytes)
			m.Default = []byte("8192")
			sc.Required = []string{"query"}
		},
		Run: func(ctx context.Context, in searchDocsInput) (*searchDocsResult, error) {
			r, err := s.docs().Search(in.Query, in.Limit, in.MaxBytes)
			if err != nil {
				return nil, err
			}
			out := searchResultForModel(r)
			out.Hint = s.words().Text(out.Hint) // it may suggest another tool
			return out, nil
		},
		Text: searchMarkdown,
	})
}

// searchMarkdown is what the model reads in most hosts: the sections
// themselves, each under a header naming its page's URI (which every host
// can read) beside the section's, instead of the same Markdown
// JSON-escaped a second time. Docs text is data: it follows a header,
// never instructions.
func searchMarkdown(r *searchDocsResult) string {
	var b strings.Builder
	if len(r.Results) == 0 {
		b.WriteString("No Loams docs section matched. " + r.Hint + "\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Loams docs %s: %d sections, best first. Read more with resources/read: a page uri (any host) or a section uri.\n", r.DocsVersion, len(r.Results))
	for _, x := range r.Results {
		fmt.Fprintf(&b, "\n=== %s\npage %s section %s\n", x.Section, x.PageURI, x.URI)
		switch {
		case x.Content != "":
			b.WriteString(strings.TrimRight(x.Content, "\n") + "\n")
			if x.Truncated {
				b.WriteString("[cut at max_bytes: read the uri for the rest]\n")
			}
		default:
			b.WriteString("[excerpt] " + x.Excerpt + "\n")
		}
	}
	if r.Truncated {
		b.WriteString("\n[more matched than max_bytes holds: read a uri, or call search_docs with a larger max_bytes]\n")
	}
	return b.String()
}
