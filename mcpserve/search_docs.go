package mcpserve

import (
	"context"

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
			return s.docs().Search(in.Query, in.Limit, in.MaxBytes)
		},
	})
}
