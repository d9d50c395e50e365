package mcpserve

import (
	"context"
	"encoding/json"

	"loams.dev/cli/docsindex"
)

type getSDKSnippetInput struct {
	Engine   string `json:"engine" jsonschema:"the engine the code talks to"`
	Language string `json:"language" jsonschema:"programming language"`
	Task     string `json:"task,omitempty" jsonschema:"what the code does"`
}

func (s *Server) getSDKSnippetTool() tool {
	engines, languages, tasks := s.docs().Enums()
	return newTool(toolSpec[getSDKSnippetInput, *docsindex.Snippet]{
		Name:  "get_sdk_snippet",
		Title: "Get a Loams code snippet",
		Description: "Tested example code (connect, create a collection, upsert, search, hybrid search, SQL) in Python, " +
			"TypeScript, JavaScript, Go or shell for Qdrant, Elasticsearch, Postgres or native, reading its endpoint and " +
			"key from .env.loams, with the packages it needs. Use it when writing app code.",
		Annotations: annotations(readOnly, notDestructive, idempotent, closedWorld),
		Schema: func(sc *jsonschemaSchema) {
			sc.Properties["engine"].Enum = enumOf(engines)
			sc.Properties["language"].Enum = enumOf(languages)
			sc.Properties["task"].Enum = enumOf(tasks)
			sc.Properties["task"].Default = json.RawMessage(`"connect"`)
		},
		Run: func(ctx context.Context, in getSDKSnippetInput) (*docsindex.Snippet, error) {
			return s.docs().Snippet(in.Engine, in.Language, in.Task)
		},
	})
}
