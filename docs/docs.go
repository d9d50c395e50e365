// Package docs holds the guides and snippets that ship inside the loams
// binary, so `loams docs search` and the search_docs tool always match the
// installed CLI and work offline.
//
// A guide section may carry, on the line under its heading, an asks line:
// <!-- asks: how do I …; my app gets …; … --> naming in askers' words the
// questions it answers (600 bytes at most). Search indexes it; no reader is
// shown it (docsindex/asks.go). Edit it with the section.
package docs

import "embed"

// FS holds guides/**/*.md and snippets/<engine>/<language>/<task>.<ext>.
//
//go:embed guides snippets
var FS embed.FS
