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

// BenchmarkFirstSearch is search_docs' first call on the embedded bundle:
// walking the bundle, building the index and answering one query.
func BenchmarkFirstSearch(b *testing.B) {
	for b.Loop() {
		if _, err := Embedded("bench").Search("qdrant port", 5, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch is a query on a built index.
func BenchmarkSearch(b *testing.B) {
	bundle := Embedded("bench")
	if _, err := bundle.Search("warm", 1, 0); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := bundle.Search("port already in use", 5, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPages is resources/list's work after the first: the list of
// pages with the size reading each returns.
func BenchmarkPages(b *testing.B) {
	bundle := Embedded("bench")
	if _, err := bundle.Pages(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := bundle.Pages(); err != nil {
			b.Fatal(err)
		}
	}
}
