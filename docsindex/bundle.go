// Package docsindex searches the docs bundle (the guides and snippets
// embedded in the binary, or a directory of Markdown), serves snippets, and
// reads pages and sections whole. The embedded bundle's index is built by
// `go generate` and embedded (prebuilt.go); any other tree is indexed in
// memory on first use, never written to disk.
package docsindex

import (
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"loams.dev/cli/docs"
)

// Bundle is a docs tree and, once loaded, its index.
type Bundle struct {
	fsys     fs.FS
	version  string
	embedded bool // fsys is docs.FS: the prebuilt index may serve it

	once     sync.Once
	index    *Index
	snippets map[string]Snippet // engine/language/task
	err      error

	pagesOnce sync.Once // Pages
	pages     []Page
	pagesErr  error
}

// Open wraps a docs tree holding guides/ and snippets/ (either may be
// missing, e.g. a --docs-dir of plain Markdown). Nothing is read yet.
func Open(fsys fs.FS, version string) *Bundle { return &Bundle{fsys: fsys, version: version} }

// Embedded is the bundle inside the binary, served from the prebuilt index
// (or, should the docs have changed since `go generate`, built on first use).
func Embedded(version string) *Bundle {
	return &Bundle{fsys: docs.FS, version: version, embedded: true}
}

// ForCLI is the bundle the CLI serves: a directory of Markdown when one is
// given (--docs-dir, LOAMS_DOCS_DIR), else the docs embedded in the binary.
func ForCLI(dir, version string) *Bundle {
	if dir != "" {
		return Open(os.DirFS(dir), version)
	}
	return Embedded(version)
}

// Version is the docs version: the binary's.
func (b *Bundle) Version() string { return b.version }

func (b *Bundle) load() error {
	b.once.Do(func() {
		if b.embedded {
			if data := prebuiltFor(b.fsys); data != "" {
				if b.index, b.snippets, b.err = decode(data); b.err == nil {
					return
				}
			}
		}
		sections, snippets, err := walk(b.fsys)
		if err != nil {
			b.err = err
			return
		}
		b.index = Build(sections)
		b.snippets = map[string]Snippet{}
		for _, s := range snippets {
			b.snippets[s.key()] = s
		}
	})
	return b.err
}

// walk reads a docs tree into sections (guides by heading, one per
// snippet) and snippets, in file order.
func walk(fsys fs.FS) ([]Section, []Snippet, error) {
	var sections []Section
	var snippets []Snippet
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !indexed(p) {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		switch {
		case strings.HasPrefix(p, "snippets/"):
			if s, ok := parseSnippet(p, string(data)); ok {
				s.doc = len(sections)
				snippets = append(snippets, s)
				sections = append(sections, snippetSection(s))
			}
		case strings.HasSuffix(p, ".md"):
			sections = append(sections, splitSections(p, string(data))...)
		}
		return nil
	})
	return sections, snippets, err
}

// indexed reports whether the index reads a file: snippets and Markdown.
func indexed(p string) bool { return strings.HasPrefix(p, "snippets/") || strings.HasSuffix(p, ".md") }

// Enums are the engines, languages and tasks that have snippets, for the
// get_sdk_snippet schema. They come from file names alone, so listing the
// tools never loads the index.
func (b *Bundle) Enums() (engines, languages, tasks []string) {
	paths, _ := fs.Glob(b.fsys, "snippets/*/*/*")
	for _, p := range paths {
		parts := strings.Split(p, "/")
		engines, languages = append(engines, parts[1]), append(languages, parts[2])
		tasks = append(tasks, strings.TrimSuffix(parts[3], path.Ext(parts[3])))
	}
	return sortedUniq(engines), sortedUniq(languages), sortedUniq(tasks)
}

// Snippets lists every snippet, for checks.
func (b *Bundle) Snippets() ([]Snippet, error) {
	if err := b.load(); err != nil {
		return nil, err
	}
	var out []Snippet
	for _, c := range combos(b.snippets) {
		out = append(out, b.snippets[c])
	}
	return out, nil
}

// Sections returns every section of the bundle (guides and snippets), the
// corpus the index is built from; the benchmark indexes the same ones.
func (b *Bundle) Sections() ([]Section, error) {
	if err := b.load(); err != nil {
		return nil, err
	}
	out := make([]Section, len(b.index.docs))
	for i, d := range b.index.docs {
		out[i] = d.sec
	}
	return out, nil
}

func sortedUniq(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
