package docsindex

import (
	"os"
	"testing"
)

// BenchmarkBuildNode builds the index over the Node.js API docs (when the
// machine has them), the large corpus of the search benchmark.
func BenchmarkBuildNode(b *testing.B) {
	dir := "/usr/share/doc/nodejs/api"
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no Node.js docs")
	}
	secs, err := Open(os.DirFS(dir), "x").Sections()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		Build(secs)
	}
}
