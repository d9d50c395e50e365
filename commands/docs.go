package commands

import (
	"github.com/urfave/cli/v3"
)

func newDocsCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "docs",
		Usage: "Search, read and copy from the Loams docs, offline",
		Description: describe("The guides and snippets ship inside loams, so they match this version.",
			`loams docs search "qdrant port"`, "loams docs show guides/engines/qdrant.md#connect-with-qdrant-client",
			"loams docs snippet --engine qdrant --language python --task search"),
		Commands: []*cli.Command{newDocsSearchCmd(f), newDocsShowCmd(f), newDocsSnippetCmd(f)},
	}
}
