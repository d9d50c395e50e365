// Command gen writes the prebuilt index of the embedded docs bundle
// (docsindex/prebuilt.idx); `go generate ./docsindex` runs it.
package main

import (
	"flag"
	"fmt"
	"os"

	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/safefile"
)

func main() {
	out := flag.String("o", "prebuilt.idx", "file to write")
	flag.Parse()
	// The tree on disk, not the embedded one: `go run` compiled this
	// program from the docs as they were, which is what is being replaced.
	data, err := docsindex.Encode(os.DirFS("../docs"))
	if err == nil {
		err = safefile.Write(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
