package docsindex

import (
	"bytes"
	"os"
	"reflect"
	"testing"
	"testing/fstest"

	"loams.dev/cli/docs"
)

// The embedded index must be the one `go generate` would write now.
func TestPrebuiltIndexIsFresh(t *testing.T) {
	t.Parallel()
	want, err := Encode(docs.FS)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal([]byte(prebuilt), want) {
		t.Fatalf("docsindex/prebuilt.idx is stale (the docs, the tokenizer or the format changed): run `go generate ./docsindex` " +
			"(LOAMS_UPDATE_REFERENCE=1 go test ./commands -run Reference does it too) and commit it")
	}
	if prebuiltFor(docs.FS) == "" {
		t.Fatal("the prebuilt index's fingerprint does not match the embedded docs")
	}
}

// Loading the prebuilt index gives the same index as building it, so
// searches rank the same either way.
func TestPrebuiltIndexEqualsARuntimeBuild(t *testing.T) {
	t.Parallel()
	loaded, built := Embedded("v"), Open(docs.FS, "v")
	if err := loaded.load(); err != nil {
		t.Fatal(err)
	}
	if err := built.load(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(loaded.index, built.index) {
		t.Error("the decoded index differs from a fresh build")
	}
	if !reflect.DeepEqual(loaded.snippets, built.snippets) {
		t.Error("the decoded snippets differ from a fresh walk")
	}
}

// A binary whose docs changed after `go generate` (a file added or grown)
// builds its index instead of serving a stale one.
func TestStalePrebuiltIndexIsNotUsed(t *testing.T) {
	t.Parallel()
	changed := fstest.MapFS{}
	paths, _ := docs.FS.ReadDir("guides")
	for _, e := range paths {
		if !e.IsDir() {
			data, _ := docs.FS.ReadFile("guides/" + e.Name())
			changed["guides/"+e.Name()] = &fstest.MapFile{Data: data}
		}
	}
	if prebuiltFor(changed) != "" {
		t.Fatal("a tree with fewer files matched the prebuilt fingerprint")
	}
	b := &Bundle{fsys: changed, version: "v", embedded: true}
	res, err := b.Search("stack", 3, 0)
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("search over a changed tree: %+v %v", res, err)
	}
	for _, r := range res.Results {
		if _, ok := changed[r.Path]; !ok {
			t.Errorf("result %s is not in the changed tree: the stale index was used", r.Path)
		}
	}
}

// Corrupt or truncated data is an error, never a panic.
func TestDecodeCorruptIndex(t *testing.T) {
	t.Parallel()
	data := prebuilt
	for _, n := range []int{0, 5, 30, len(data) / 3, len(data) / 2, len(data) - 1} {
		if _, _, err := decode(data[:n]); err == nil {
			t.Errorf("decode of the first %d bytes: no error", n)
		}
	}
}

// The docs directory on disk (as the reference test and go generate read
// it) encodes exactly as the embedded tree.
func TestEncodeOfTheDocsDirectoryEqualsTheEmbedded(t *testing.T) {
	t.Parallel()
	disk, err := Encode(os.DirFS("../docs"))
	if err != nil {
		t.Fatal(err)
	}
	embedded, _ := Encode(docs.FS)
	if !bytes.Equal(disk, embedded) {
		t.Error("encoding ../docs differs from encoding the embedded docs")
	}
}
