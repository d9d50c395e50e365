package commands

import (
	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/buildinfo"
)

// docsBundle is --docs-dir, else LOAMS_DOCS_DIR, else the embedded docs.
func (f *Factory) docsBundle(dir string) *docsindex.Bundle {
	if dir == "" {
		dir = f.Getenv("LOAMS_DOCS_DIR")
	}
	return docsindex.ForCLI(dir, buildinfo.Get().Version)
}
