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

func (s *Server) searchDocsTool() tool {
	return newTool(toolSpec[searchDocsInput, *docsindex.SearchResult]{
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
		Run: func(ctx context.Context, in searchDocsInput) (*docsindex.SearchResult, error) {
			r, err := s.docs().Search(in.Query, in.Limit, in.MaxBytes)
			if r != nil {
				r.Hint = s.words().Text(r.Hint) // it may suggest another tool
			}
			return r, err
		},
		Text: searchMarkdown,
	})
}

// searchMarkdown is what the model reads: the sections themselves, each
// under a one-line header (title path, page, resource URI), instead of the
// same Markdown JSON-escaped a second time (structuredContent keeps the
// JSON). Docs text is data: it follows a header, never instructions.
func searchMarkdown(r *docsindex.SearchResult) string {
	var b strings.Builder
	if len(r.Results) == 0 {
		b.WriteString("No Loams docs section matched. " + r.Hint + "\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Loams docs %s: %d sections, best first. resources/read takes a page's loams://docs/<path> or a section's uri.\n", r.DocsVersion, len(r.Results))
	for _, x := range r.Results {
		fmt.Fprintf(&b, "\n=== %s (%s) %s\n", x.Section, x.Path, x.URI)
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
