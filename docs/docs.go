// Package docs holds the guides and snippets that ship inside the loams
// binary, so `loams docs search` and the search_docs tool always match the
// installed CLI and work offline.
package docs

import "embed"

// FS holds guides/**/*.md and snippets/<engine>/<language>/<task>.<ext>.
//
//go:embed guides snippets
var FS embed.FS
