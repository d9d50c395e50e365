package docsindex

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"loams.dev/cli/docs"
)

const asksPage = `# Widgets

Widgets hold things.

## Bind a widget
<!-- asks: link my gizmo to a sprocket; my gizmo forgot its sprocket;
     attach gizmo -->

A widget is bound with ` + "`loams widget bind`" + `.

## Unbind a widget

A widget is unbound with ` + "`loams widget unbind`" + `.
`

// The asks comment is indexed as its own field and never shown: a
// question made only of its words finds the section, and neither the
// result, the section nor the page read whole carries the comment.
func TestAsksAreIndexedNotShown(t *testing.T) {
	t.Parallel()
	b := Open(fstest.MapFS{"guides/widgets.md": {Data: []byte(asksPage)}}, "v")
	res, err := b.Search("my gizmo forgot its sprocket", 5, 0)
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("%+v %v", res, err)
	}
	if got := res.Results[0].URI; got != "loams://docs/guides/widgets.md#bind-a-widget" {
		t.Errorf("first result %s, want the section whose asks say it", got)
	}
	for _, r := range res.Results {
		if strings.Contains(r.Content+r.Excerpt+r.Summary(), "asks") || strings.Contains(r.Content, "<!--") {
			t.Errorf("%s shows the asks comment:\n%s%s", r.URI, r.Content, r.Excerpt)
		}
	}
	if tight, _ := b.Search("attach gizmo", 5, MinMaxBytes); len(tight.Results) == 0 || strings.Contains(tight.Results[0].Content+tight.Results[0].Excerpt, "gizmo") {
		t.Errorf("attach gizmo: %+v", tight)
	}
	for _, ref := range []string{"guides/widgets.md", "guides/widgets.md#bind-a-widget", "guides/widgets.md#widgets"} {
		doc, err := b.Read(ref)
		if err != nil || strings.Contains(doc.Text, "<!--") || strings.Contains(doc.Text, "sprocket") {
			t.Errorf("%s: %v\n%s", ref, err, doc.Text)
		}
	}
	whole, _ := b.Read("guides/widgets.md")
	if want := strings.Replace(asksPage, "<!-- asks: link my gizmo to a sprocket; my gizmo forgot its sprocket;\n     attach gizmo -->\n", "", 1); whole.Text != want {
		t.Errorf("the page less its comment:\n%q\nwant\n%q", whole.Text, want)
	}
	pages, _ := b.Pages()
	if len(pages) != 1 || pages[0].Size != len(whole.Text) {
		t.Errorf("the listed size is not what a read returns: %+v, %d", pages, len(whole.Text))
	}
	secs, _ := b.Sections()
	if secs[1].Asks != "link my gizmo to a sprocket; my gizmo forgot its sprocket; attach gizmo" {
		t.Errorf("asks %q", secs[1].Asks)
	}
}

// A comment that is not a well-formed asks line under a heading is text:
// it is shown as written and never swallows what follows it.
func TestMalformedAsksIsText(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct{ page, keeps string }{
		"unterminated": {"# P\n\n## A\n<!-- asks: how do I frob\n\nFrobbing is done so.\n\n## B\n\nBody of B.\n", "<!-- asks: how do I frob"},
		"too long":     {"# P\n\n## A\n<!-- asks: one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine -->\nFrobbing.\n\n## B\n\nBody of B.\n", "nine -->"},
		"text after":   {"# P\n\n## A\n<!-- asks: frob --> and then prose\n\n## B\n\nBody of B.\n", "and then prose"},
		"not under":    {"# P\n\n## A\n\nFrobbing.\n\n<!-- asks: frob -->\n\n## B\n\nBody of B.\n", "<!-- asks: frob -->"},
		"in a fence":   {"# P\n\n## A\n\n```md\n## Inner\n<!-- asks: frob -->\n```\n\n## B\n\nBody of B.\n", "<!-- asks: frob -->"},
	} {
		secs := splitSections("guides/p.md", c.page)
		var a, bsec *Section
		for i := range secs {
			switch secs[i].Anchor {
			case "a":
				a = &secs[i]
			case "b":
				bsec = &secs[i]
			}
		}
		if a == nil || bsec == nil || bsec.Body != "Body of B." {
			t.Errorf("%s: the page after the comment was lost: %+v", name, secs)
			continue
		}
		if a.Asks != "" || !strings.Contains(a.Body, c.keeps) {
			t.Errorf("%s: asks %q, body %q", name, a.Asks, a.Body)
		}
		if StripAsks(c.page) != c.page {
			t.Errorf("%s: StripAsks changed the page:\n%s", name, StripAsks(c.page))
		}
	}
}

// Over the guides: every asks comment is well formed (none is left in a
// body, where readers would see it), within AsksMaxBytes, and none reaches
// a reader through a page, a section or a search result.
func TestGuidesAsks(t *testing.T) {
	t.Parallel()
	b := Embedded("v")
	secs, err := b.Sections()
	if err != nil {
		t.Fatal(err)
	}
	with := 0
	for _, s := range secs {
		if strings.Contains(s.Body, "<!--") {
			t.Errorf("%s: an HTML comment in the body (a malformed asks line?)", s.URI())
		}
		if len(s.Asks) > AsksMaxBytes {
			t.Errorf("%s: asks of %d bytes, more than %d", s.URI(), len(s.Asks), AsksMaxBytes)
		}
		if s.Asks != "" {
			with++
			if strings.HasPrefix(s.Path, "snippets/") || strings.HasPrefix(s.Path, "guides/reference/") {
				t.Errorf("%s: asks belong to the written guides", s.URI())
			}
		}
		doc, err := b.Read(s.URI())
		if err != nil || strings.Contains(doc.Text, asksOpen) {
			t.Errorf("%s: %v, or the asks comment is shown", s.URI(), err)
		}
	}
	if with < 200 {
		t.Errorf("%d guide sections carry asks; the guides had 234", with)
	}
	err = fs.WalkDir(docs.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		doc, err := b.Read(p)
		if err != nil || strings.Contains(doc.Text, asksOpen) {
			t.Errorf("%s: %v, or the asks comment is shown", p, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"bind a stack to a project", "update notice", "hosted deployment", "read-only mcp tools", "keychain secret"} {
		res, _ := b.Search(q, 10, MaxMaxBytes)
		for _, r := range res.Results {
			if strings.Contains(r.Content+r.Excerpt, asksOpen) {
				t.Errorf("%q: %s shows the asks comment", q, r.URI)
			}
		}
	}
}
