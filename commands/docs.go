package commands

import (
	"github.com/urfave/cli/v3"

	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/buildinfo"
)

func newDocsCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "docs",
		Usage: "Search the Loams docs and print code snippets, offline",
		Description: describe("The guides and snippets ship inside loams, so they match this version.",
			`loams docs search "qdrant port"`, "loams docs snippet --engine qdrant --language python --task search"),
		Commands: []*cli.Command{newDocsSearchCmd(f), newDocsSnippetCmd(f)},
	}
}

// docsBundle is --docs-dir, else LOAMS_DOCS_DIR, else the embedded docs.
func (f *Factory) docsBundle(dir string) *docsindex.Bundle {
	if dir == "" {
		dir = f.Getenv("LOAMS_DOCS_DIR")
	}
	return docsindex.ForCLI(dir, buildinfo.Get().Version)
}
