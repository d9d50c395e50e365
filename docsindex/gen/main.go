// Command gen writes the prebuilt index of the embedded docs bundle
// (docsindex/prebuilt.idx); `go generate ./docsindex` runs it.
package main

import (
	"flag"
	"fmt"
	"os"

	"loams.dev/cli/docs"
	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/safefile"
)

func main() {
	out := flag.String("o", "prebuilt.idx", "file to write")
	flag.Parse()
	data, err := docsindex.Encode(docs.FS)
	if err == nil {
		err = safefile.Write(*out, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
