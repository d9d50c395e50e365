package commands

import (
	"context"
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
)

// docsShowJSON is `docs show --output json`: the resource an agent reads.
type docsShowJSON struct {
	URI      string `json:"uri"`
	Path     string `json:"path"`
	Anchor   string `json:"anchor,omitempty"`
	MIMEType string `json:"mime_type"`
	Text     string `json:"text"`
}

type docsShowOptions struct {
	DocsDir string // --docs-dir, else LOAMS_DOCS_DIR, else the embedded docs
	Page    string // PATH[#ANCHOR], URI or URL
}

func newDocsShowCmd(f *Factory) *cli.Command {
	opts := &docsShowOptions{}
	return &cli.Command{
		Name:      "show",
		Usage:     "Print a guide, one of its sections or a snippet, whole",
		ArgsUsage: "PATH[#ANCHOR]|URI|URL",
		Description: describe("Takes what docs search prints: a path, a loams://docs/ URI or a loams.dev/docs URL,\n"+
			"with #anchor for one section (and its subsections). On a terminal the Markdown is\n"+
			"rendered; piped, it is printed as is. Agents read the same text as MCP resources.",
			"loams docs show guides/engines/qdrant.md", "loams docs show loams://docs/guides/stacks.md#port-already-in-use",
			"loams docs show snippets/qdrant/python/search.py > search.py"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "docs-dir", Usage: "read from this directory of Markdown (env LOAMS_DOCS_DIR)", Destination: &opts.DocsDir},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return errs.New(errs.Usage, "pass one page, e.g. loams docs show guides/stacks.md#ports; `loams docs search WORDS` finds pages",
					"docs show takes one page, got %d arguments", cmd.Args().Len())
			}
			opts.Page = cmd.Args().First()
			return runDocsShow(ctx, f, opts)
		},
	}
}

func runDocsShow(ctx context.Context, f *Factory, opts *docsShowOptions) error {
	doc, err := f.docsBundle(opts.DocsDir).Read(opts.Page)
	if err != nil {
		return err
	}
	raw := doc.Text
	if f.Globals.Output == output.Table && f.IO.StdoutTTY {
		raw = renderMarkdown(doc.Text, doc.MIMEType, f.termWidth(), lipgloss.NewRenderer(f.IO.Out), f.colorOn())
	}
	if f.Globals.Output != output.JSON {
		_, err := io.WriteString(f.IO.Out, raw)
		return err
	}
	return f.Printer().Print(output.View{JSON: docsShowJSON{URI: doc.URI, Path: doc.Path, Anchor: doc.Anchor, MIMEType: doc.MIMEType, Text: doc.Text}})
}
