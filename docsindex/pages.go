package docsindex

import (
	"io/fs"
	"path"
	"slices"
	"strings"

	"loams.dev/cli/internal/errs"
)

// URIPrefix starts every docs resource URI: loams://docs/<path>[#<anchor>].
const URIPrefix = "loams://docs/"

// siteURL is where the bundle is published; docs show accepts its links.
const siteURL = "https://loams.dev/docs/"

// A Page is one file of the bundle as an MCP resource lists it.
type Page struct {
	Path     string
	URI      string
	Title    string
	MIMEType string
	Size     int
}

// A Document is what reading a page, or one section of it, returns.
type Document struct {
	URI      string
	Path     string
	Anchor   string
	MIMEType string
	Text     string
}

// mimeTypes maps a file extension to the type a resource declares: guides
// are Markdown, snippets carry their language's type.
var mimeTypes = map[string]string{
	".md": "text/markdown", ".py": "text/x-python", ".ts": "text/x-typescript", ".mjs": "text/javascript",
	".sh": "text/x-shellscript", ".go": "text/x-go", ".sql": "application/sql",
}

// MIMEType is the media type of a docs path.
func MIMEType(p string) string {
	if t, ok := mimeTypes[path.Ext(p)]; ok {
		return t
	}
	return "text/plain"
}

// Pages lists every guide and snippet, in file order. The list is made
// once per bundle (every file is read for its size): an MCP host may ask
// for resources/list after every change notification, and the bundle never
// changes. Callers get their own copy.
func (b *Bundle) Pages() ([]Page, error) {
	b.pagesOnce.Do(func() { b.pages, b.pagesErr = b.listPages() })
	return slices.Clone(b.pages), b.pagesErr
}

func (b *Bundle) listPages() ([]Page, error) {
	if err := b.load(); err != nil {
		return nil, err
	}
	var out []Page
	for _, d := range b.index.docs {
		p := d.sec.Path
		if len(out) > 0 && out[len(out)-1].Path == p {
			continue
		}
		title := d.sec.Title()
		if len(d.sec.TitlePath) > 1 && strings.HasPrefix(p, "snippets/") {
			title = d.sec.TitlePath[1] + " (snippet)"
		}
		page := Page{Path: p, URI: URIPrefix + p, Title: title, MIMEType: MIMEType(p)}
		if data, err := fs.ReadFile(b.fsys, p); err == nil {
			page.Size = len(StripAsks(string(data))) // what reading it returns
		}
		out = append(out, page)
	}
	return out, nil
}

// Read returns a whole page, or with an anchor one section: its heading and
// everything up to the next heading of the same or a higher level. ref is
// a path (guides/stacks.md, guides/stacks), a loams://docs/ URI or a
// https://loams.dev/docs/ URL, each with an optional #anchor.
func (b *Bundle) Read(ref string) (*Document, error) {
	p, anchor, err := b.resolve(ref)
	if err != nil {
		return nil, err
	}
	doc := &Document{URI: URIPrefix + p, Path: p, Anchor: anchor, MIMEType: MIMEType(p)}
	if anchor == "" {
		data, err := fs.ReadFile(b.fsys, p)
		if err != nil {
			return nil, notFound(ref, "")
		}
		doc.Text = StripAsks(string(data)) // the asks are for the index, not for readers
		return doc, nil
	}
	if err := b.load(); err != nil {
		return nil, err
	}
	doc.URI += "#" + anchor
	var anchors []string
	for i, d := range b.index.docs {
		if d.sec.Path != p {
			continue
		}
		anchors = append(anchors, d.sec.Anchor)
		if d.sec.Anchor != anchor {
			continue
		}
		parts := []string{d.sec.Markdown()}
		for _, next := range b.index.docs[i+1:] {
			if next.sec.Path != p || next.sec.Level <= d.sec.Level {
				break
			}
			parts = append(parts, next.sec.Markdown())
		}
		doc.Text = strings.Join(parts, "\n")
		return doc, nil
	}
	return nil, notFound(ref, "sections of "+p+": #"+strings.Join(anchors, ", #"))
}

// resolve turns a reference into a bundle path and an anchor, refusing
// anything outside the bundle.
func (b *Bundle) resolve(ref string) (p, anchor string, err error) {
	p = strings.TrimSpace(ref)
	for _, prefix := range []string{URIPrefix, siteURL, "/docs/", "docs/"} {
		p = strings.TrimPrefix(p, prefix)
	}
	p, anchor, _ = strings.Cut(p, "#")
	if p == "" || !fs.ValidPath(p) {
		return "", "", notFound(ref, "")
	}
	if _, err := fs.Stat(b.fsys, p); err != nil {
		if _, err := fs.Stat(b.fsys, p+".md"); err != nil {
			return "", "", notFound(ref, "")
		}
		p += ".md" // the site's URLs drop .md
	}
	return p, anchor, nil
}

// notFound is the error for a reference that names no page or section; it
// wraps fs.ErrNotExist so the MCP layer can answer "resource not found".
func notFound(ref, known string) *errs.Error {
	hint := "find pages with `loams docs search WORDS`; paths look like guides/stacks.md or snippets/qdrant/python/connect.py"
	if known != "" {
		hint = known
	}
	if len(ref) > 200 { // never echo more than 200 characters of bad input
		ref = ref[:200] + "…"
	}
	e := errs.New(errs.Usage, hint, "no docs page or section %q", ref).Wrap(fs.ErrNotExist)
	if known == "" {
		e.ForAgent(errs.ToolCall("search_docs", map[string]any{"query": "WORDS"}) + "; its results name the uris to read")
	}
	return e
}
