package mcpserve

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"loams.dev/cli/docsindex"
)

type searchDocsInput struct {
	Query string `json:"query" jsonschema:"words, a variable, a flag or an error code"`
	Limit int    `json:"limit,omitempty" jsonschema:"results to return"`
}

func (s *Server) searchDocsTool() tool {
	return newTool(toolSpec[searchDocsInput, *docsindex.SearchResult]{
		Name:  "search_docs",
		Title: "Search the Loams docs",
		Description: "Search the Loams guides and snippets for this CLI version: ports, variables, engines, errors, agent " +
			"setup. Use it before guessing. Example: {\"query\":\"qdrant port\"}. Returns sections with excerpts and URLs.",
		Annotations: mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: no()},
		Schema: func(sc *jsonschemaSchema) {
			q := sc.Properties["query"]
			q.MinLength, q.MaxLength = intPtr(1), intPtr(500)
			l := sc.Properties["limit"]
			l.Minimum, l.Maximum, l.Default = floatPtr(1), floatPtr(20), []byte("5")
			sc.Required = []string{"query"}
		},
		Run: func(ctx context.Context, in searchDocsInput) (*docsindex.SearchResult, error) {
			return s.docs().Search(in.Query, in.Limit)
		},
	})
}
