// Package docsindex searches the docs bundle (the guides and snippets
// embedded in the binary, or a directory of Markdown) and serves snippets.
// The index is built in memory on first use, never written to disk.
package docsindex

import (
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"loams.dev/cli/docs"
	"loams.dev/cli/internal/errs"
)

// resultCap bounds a search result, as every MCP result is bounded.
const resultCap = 32 << 10

// Bundle is a docs tree and, once built, its index.
type Bundle struct {
	fsys    fs.FS
	version string

	once     sync.Once
	index    *Index
	snippets map[string]Snippet // engine/language/task
	err      error
}

// Open wraps a docs tree holding guides/ and snippets/ (either may be
// missing, e.g. a --docs-dir of plain Markdown). Nothing is read yet.
func Open(fsys fs.FS, version string) *Bundle { return &Bundle{fsys: fsys, version: version} }

func (b *Bundle) load() error {
	b.once.Do(func() {
		var sections []Section
		b.snippets = map[string]Snippet{}
		b.err = fs.WalkDir(b.fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(b.fsys, p)
			if err != nil {
				return err
			}
			switch {
			case strings.HasPrefix(p, "snippets/"):
				if s, ok := parseSnippet(p, string(data)); ok {
					b.snippets[s.Engine+"/"+s.Language+"/"+s.Task] = s
					sections = append(sections, snippetSection(s))
				}
			case strings.HasSuffix(p, ".md"):
				sections = append(sections, splitSections(p, string(data))...)
			}
			return nil
		})
		b.index = Build(sections)
	})
	return b.err
}

// Result is one search hit as search_docs returns it.
type Result struct {
	Title   string  `json:"title"`
	Path    string  `json:"path"`
	Section string  `json:"section"`
	Excerpt string  `json:"excerpt"`
	URL     string  `json:"url"`
	Score   float64 `json:"score"`
}

// SearchResult is search_docs' and `loams docs search`'s answer.
type SearchResult struct {
	DocsVersion string   `json:"docs_version"`
	Results     []Result `json:"results"`
	Hint        string   `json:"hint,omitempty"`
	Truncated   bool     `json:"truncated,omitempty"`
}

// Truncate drops the last result, so the MCP framework can fit the cap.
func (r *SearchResult) Truncate() bool {
	if len(r.Results) == 0 {
		return false
	}
	r.Results, r.Truncated = r.Results[:len(r.Results)-1], true
	return true
}

// Search ranks the bundle's sections for query.
func (b *Bundle) Search(query string, limit int) (*SearchResult, error) {
	if err := b.load(); err != nil {
		return nil, err
	}
	res := &SearchResult{DocsVersion: b.version, Results: []Result{}}
	size := 0
	for _, h := range b.index.Search(query, limit) {
		s := h.Section
		r := Result{Title: s.Title(), Path: s.Path, Section: strings.Join(s.TitlePath, " › "),
			Excerpt: excerpt(s.Body, h.Terms), URL: docURL(s.Path, s.Anchor), Score: float64(int(h.Score*1000)) / 1000}
		if size += len(r.Excerpt) + len(r.Section) + 200; size > resultCap {
			res.Truncated = true
			break
		}
		res.Results = append(res.Results, r)
	}
	if len(res.Results) == 0 {
		res.Hint = "nothing matched; try fewer or other words (an engine, a variable name, an error code), or get_sdk_snippet for code"
	}
	return res, nil
}

// Snippet returns one snippet; an unknown combination lists what exists.
func (b *Bundle) Snippet(engine, language, task string) (*Snippet, error) {
	if err := b.load(); err != nil {
		return nil, err
	}
	if task == "" {
		task = "connect"
	}
	s, ok := b.snippets[engine+"/"+language+"/"+task]
	if !ok {
		var same []string
		for _, c := range combos(b.snippets) {
			if strings.HasPrefix(c, engine+"/"+language+"/") {
				same = append(same, strings.TrimPrefix(c, engine+"/"+language+"/"))
			}
		}
		hint := "available: " + strings.Join(combos(b.snippets), ", ")
		if len(same) > 0 {
			hint = "tasks for " + engine + "/" + language + ": " + strings.Join(same, ", ")
		}
		return nil, errs.New(errs.SnippetNotFound, hint, "no %s snippet for %s in %s", task, engine, language).
			With("engine", engine).With("language", language).With("task", task)
	}
	return &s, nil
}

// Enums are the engines, languages and tasks that have snippets, for the
// get_sdk_snippet schema. They come from file names alone, so listing the
// tools never builds the index.
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

func sortedUniq(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// ForCLI is the bundle the CLI serves: a directory of Markdown when one is
// given (--docs-dir, LOAMS_DOCS_DIR), else the docs embedded in the binary.
func ForCLI(dir, version string) *Bundle {
	if dir != "" {
		return Open(os.DirFS(dir), version)
	}
	return Open(docs.FS, version)
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
