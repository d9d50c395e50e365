package commands

import (
	"context"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
)

type docsSnippetOptions struct {
	Engine   string
	Language string
	Task     string
}

func newDocsSnippetCmd(f *Factory) *cli.Command {
	opts := &docsSnippetOptions{}
	return &cli.Command{
		Name:  "snippet",
		Usage: "Print a tested code snippet, ready to paste",
		Description: describe("The code reads its endpoints and key from the variables of .env.loams.",
			"loams docs snippet --engine qdrant --language python --task search",
			"loams docs snippet --engine qdrant --language javascript > index.mjs"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "engine", Usage: "native, qdrant, es or pg", Required: true, Destination: &opts.Engine},
			&cli.StringFlag{Name: "language", Usage: "python, typescript, javascript, shell or go", Required: true, Destination: &opts.Language},
			&cli.StringFlag{Name: "task", Value: "connect", Usage: "connect, create_collection, upsert, search, hybrid_search or sql", Destination: &opts.Task},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runDocsSnippet(ctx, f, opts)
		},
	}
}

func runDocsSnippet(ctx context.Context, f *Factory, opts *docsSnippetOptions) error {
	s, err := f.docsBundle("").Snippet(opts.Engine, opts.Language, opts.Task)
	if err != nil {
		return err
	}
	return f.Printer().Print(output.View{JSON: s, Raw: s.Code})
}
