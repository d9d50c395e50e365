package commands

import (
	"os"
	"strconv"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/buildinfo"
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

// docsBundle is --docs-dir, else LOAMS_DOCS_DIR, else the embedded docs.
func (f *Factory) docsBundle(dir string) *docsindex.Bundle {
	if dir == "" {
		dir = f.Getenv("LOAMS_DOCS_DIR")
	}
	return docsindex.ForCLI(dir, buildinfo.Get().Version)
}

// termWidth is the width to lay docs out in: COLUMNS when set, else the
// terminal's; 0 when stdout is not a terminal (no layout: pipes get it all).
func (f *Factory) termWidth() int {
	if n, err := strconv.Atoi(f.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if !f.IO.StdoutTTY {
		return 0
	}
	if out, ok := f.IO.Out.(*os.File); ok {
		if w, _, err := term.GetSize(int(out.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return 80
}
