package commands

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"loams.dev/cli/docs"
	"loams.dev/cli/docsindex"
)

// rawMarkdown are the marks a terminal reader should never see.
var rawMarkdown = []string{"```", "|---", "| What |", "**"}

// On a terminal, docs search fits the width and shows prose, not Markdown.
func TestDocsSearchFitsTheTerminal(t *testing.T) {
	t.Parallel()
	for _, width := range []string{"60", "100"} {
		r := runLoams(t, map[string]string{"COLUMNS": width}, true, "docs", "search", "qdrant port")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		for _, line := range strings.Split(strings.TrimRight(r.stdout, "\n"), "\n") {
			if ref := strings.TrimSpace(line); strings.HasPrefix(line, "  ") && !strings.Contains(ref, " ") && strings.Contains(ref, ".md") {
				continue // the reference for docs show is printed whole, never cut
			}
			if w := lipgloss.Width(line); w > atoi(width) {
				t.Errorf("COLUMNS=%s: a line of %d cells: %q", width, w, line)
			}
		}
		for _, raw := range rawMarkdown {
			if strings.Contains(r.stdout, raw) {
				t.Errorf("COLUMNS=%s: raw Markdown %q in\n%s", width, raw, r.stdout)
			}
		}
		if !strings.Contains(r.stdout, "\n  guides/engines/qdrant.md#qdrant-port-and-variables\n") {
			t.Errorf("the reference for docs show is missing:\n%s", r.stdout)
		}
	}
	piped := runLoams(t, nil, false, "docs", "search", "connect to qdrant from python")
	for _, raw := range rawMarkdown {
		if strings.Contains(piped.stdout, raw) {
			t.Errorf("piped table: raw Markdown %q in\n%s", raw, piped.stdout)
		}
	}
}

// --output json carries whole sections, as search_docs does.
func TestDocsSearchJSONHasWholeSections(t *testing.T) {
	t.Parallel()
	r := runLoams(t, nil, false, "docs", "search", "connect to qdrant from python", "-o", "json")
	var res struct {
		Results []struct{ URI, Content string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Results) == 0 {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if strings.Contains(r.stdout, "<!-- asks") {
		t.Errorf("docs search shows a section's asks comment:\n%s", r.stdout)
	}
	if !strings.Contains(res.Results[0].Content, "```python\nimport os\nfrom qdrant_client import QdrantClient\n") {
		t.Errorf("first result:\n%s", res.Results[0].Content)
	}
	if bad := runLoams(t, nil, false, "docs", "search", "x", "--max-bytes", "10"); bad.code != 2 || !strings.Contains(bad.stderr, "--max-bytes") {
		t.Errorf("--max-bytes 10: exit %d, %s", bad.code, bad.stderr)
	}
}

// docs show prints the page as is when piped, rendered on a terminal,
// and the resource document in JSON.
func TestDocsShow(t *testing.T) {
	t.Parallel()
	file, _ := fs.ReadFile(docs.FS, "guides/engines/qdrant.md")
	file = []byte(docsindex.StripAsks(string(file))) // the page as is, less the index's asks comments
	piped := runLoams(t, nil, false, "docs", "show", "guides/engines/qdrant.md")
	if piped.code != 0 || piped.stdout != string(file) {
		t.Errorf("piped docs show is not the page as is (exit %d, %d of %d bytes)", piped.code, len(piped.stdout), len(file))
	}
	tty := runLoams(t, map[string]string{"COLUMNS": "100"}, true, "docs", "show", "https://loams.dev/docs/guides/engines/qdrant#qdrant-port-and-variables")
	if tty.code != 0 || strings.Contains(tty.stdout, "|---") || strings.Contains(tty.stdout, "## ") || !strings.Contains(tty.stdout, "6333") {
		t.Errorf("terminal docs show (exit %d):\n%s", tty.code, tty.stdout)
	}
	if strings.Contains(tty.stdout, "Connect with qdrant-client") {
		t.Errorf("an anchor shows one section, got the next one too:\n%s", tty.stdout)
	}
	js := runLoams(t, nil, false, "docs", "show", "loams://docs/snippets/qdrant/python/connect.py", "-o", "json")
	var doc docsShowJSON
	if err := json.Unmarshal([]byte(js.stdout), &doc); err != nil || doc.MIMEType != "text/x-python" || !strings.Contains(doc.Text, "QdrantClient") {
		t.Errorf("json docs show: %v %+v", err, doc)
	}
	missing := runLoams(t, nil, false, "docs", "show", "guides/nope.md")
	if missing.code != 2 || !strings.Contains(missing.stderr, "hint: ") {
		t.Errorf("unknown page: exit %d, %s", missing.code, missing.stderr)
	}
}

func TestRenderMarkdown(t *testing.T) {
	t.Parallel()
	md := "# Title\n\nSome `code` and **bold** and [a link](https://x.y).\nSecond `line\nspan` here.\n\n| A | B |\n|---|---|\n| long cell | 2 |\n\n```python\nprint(1)\n```\n- item\n"
	out := renderMarkdown(md, "text/markdown", 80, lipgloss.NewRenderer(nil), false)
	want := "Title\n\nSome code and bold and a link (https://x.y).\nSecond line\nspan here.\n\n  A          B\n  long cell  2\n\n  python\nprint(1)\n• item\n"
	if out != want {
		t.Errorf("rendered:\n%q\nwant:\n%q", out, want)
	}
	// Issue 21: code is printed as written, so a pasted block runs.
	block := "import os\n\ndef main():\n    if os.environ:\n\tpass\n"
	for _, color := range []bool{false, true} {
		r := lipgloss.NewRenderer(nil)
		if color {
			r.SetColorProfile(termenv.ANSI256)
		}
		out := renderMarkdown("Run this:\n\n```python\n"+block+"```\n", "text/markdown", 80, r, color)
		if color && !strings.Contains(out, "\x1b[") {
			t.Fatal("color=true rendered no colour: the test checks nothing")
		}
		if !strings.Contains(regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(out, ""), "\n"+block) {
			t.Errorf("color=%v: code block changed:\n%q", color, out)
		}
	}
	if code := renderMarkdown("print('# not a heading')\n", "text/x-python", 80, lipgloss.NewRenderer(nil), false); code != "print('# not a heading')\n" {
		t.Errorf("a code file is printed as is: %q", code)
	}
}

// --language py says "did you mean python?", not every combination.
func TestDocsSnippetSuggests(t *testing.T) {
	t.Parallel()
	r := runLoams(t, nil, false, "docs", "snippet", "--engine", "qdrant", "--language", "py")
	if r.code != 4 || !strings.Contains(r.stderr, "did you mean python?") || strings.Contains(r.stderr, "qdrant/python/") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
