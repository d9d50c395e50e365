package docsindex

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"loams.dev/cli/docs"
	"loams.dev/cli/internal/errs"
)

// The question the issue asks: the first result carries the Python code,
// line-broken and fenced, and it compiles.
func TestSearchReturnsRunnablePythonWhole(t *testing.T) {
	t.Parallel()
	res, err := Embedded("v").Search("connect to qdrant from python", 5, 0)
	if err != nil || len(res.Results) == 0 {
		t.Fatalf("%+v %v", res, err)
	}
	first := res.Results[0]
	code, ok := fenced(first.Content, "python")
	if !ok {
		t.Fatalf("first result %s has no python block:\n%s", first.URI, first.Content)
	}
	if !strings.Contains(code, "\nfrom qdrant_client import QdrantClient\n") || !strings.Contains(code, "QDRANT_URL") {
		t.Errorf("the python block is not the qdrant connect code:\n%s", code)
	}
	if !strings.HasPrefix(first.URI, URIPrefix+first.Path+"#") {
		t.Errorf("uri %q does not name the section of %s", first.URI, first.Path)
	}
	if python, err := exec.LookPath("python3"); err == nil {
		file := filepath.Join(t.TempDir(), "connect.py")
		os.WriteFile(file, []byte(code), 0o644)
		if out, err := exec.Command(python, "-m", "py_compile", file).CombinedOutput(); err != nil {
			t.Errorf("the python of the first result does not compile: %v\n%s", err, out)
		}
	}
}

// fenced returns the body of the first ```lang block of md.
func fenced(md, lang string) (string, bool) {
	_, rest, ok := strings.Cut(md, "```"+lang+"\n")
	if !ok {
		return "", false
	}
	code, _, ok := strings.Cut(rest, "```")
	return code, ok
}

// Whole sections until the budget is spent, then excerpts; never past it.
func TestSearchKeepsWithinMaxBytes(t *testing.T) {
	t.Parallel()
	b := Embedded("v")
	for _, max := range []int{MinMaxBytes, 2048, DefaultMaxBytes, MaxMaxBytes} {
		res, err := b.Search("stack port engines", 20, max)
		if err != nil {
			t.Fatal(err)
		}
		used, whole, excerpts := 0, 0, 0
		for _, r := range res.Results {
			used += len(r.Content) + len(r.Excerpt)
			if r.Content != "" {
				whole++
			} else {
				excerpts++
				if len(r.Excerpt) == 0 {
					t.Errorf("max %d: %s has neither content nor excerpt", max, r.URI)
				}
			}
		}
		if used > max {
			t.Errorf("max_bytes %d: %d bytes returned", max, used)
		}
		if whole == 0 {
			t.Errorf("max_bytes %d: no whole section", max)
		}
		if excerpts > 0 != res.Truncated && len(res.Results) == 20 {
			t.Errorf("max_bytes %d: %d excerpts but truncated=%v", max, excerpts, res.Truncated)
		}
	}
	small, _ := b.Search("stack port engines", 20, MinMaxBytes)
	large, _ := b.Search("stack port engines", 20, MaxMaxBytes)
	if !small.Truncated || countWhole(large) <= countWhole(small) {
		t.Errorf("a larger budget should hold more whole sections: %d at 1 KiB (truncated %v), %d at 24 KiB",
			countWhole(small), small.Truncated, countWhole(large))
	}
}

func countWhole(r *SearchResult) int {
	n := 0
	for _, x := range r.Results {
		if x.Content != "" {
			n++
		}
	}
	return n
}

// A first section larger than the budget is cut on a line, its fence
// closed, and says where the rest is.
func TestFirstSectionLargerThanTheBudgetIsCutCleanly(t *testing.T) {
	t.Parallel()
	md := "## Big\n\n```python\n" + strings.Repeat("print('a line of code')\n", 100) + "```\n"
	out := cutMarkdown(md, 1024, "loams://docs/x.md#big")
	if len(out) > 1024 || strings.Count(out, "```")%2 != 0 || !strings.Contains(out, "loams://docs/x.md#big") {
		t.Errorf("cut to %d bytes, %d fences:\n%s", len(out), strings.Count(out, "```"), out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.Contains(md, line+"\n") && !strings.HasPrefix(line, "[…cut") {
			t.Errorf("line %q is not a whole line of the section", line)
		}
	}
}

// Excerpts are prose: no fences, table rules or pipes (the CLI table shows them).
func TestExcerptsHaveNoRawMarkdown(t *testing.T) {
	t.Parallel()
	ex := excerpt("| What | Value |\n|---|---|\n| REST port | 6333 — `QDRANT_URL` |\n\n```python\nimport os\n```\n", []string{"port"})
	for _, raw := range []string{"```", "|", "---", "`"} {
		if strings.Contains(ex, raw) {
			t.Errorf("excerpt %q contains %q", ex, raw)
		}
	}
	if !strings.Contains(ex, "REST port · 6333 — QDRANT_URL") || !strings.Contains(ex, "import os") {
		t.Errorf("excerpt lost the words: %q", ex)
	}
}

func TestReadReturnsWholePagesAndSections(t *testing.T) {
	t.Parallel()
	b := Embedded("v")
	file, _ := fs.ReadFile(docs.FS, "guides/engines/qdrant.md")
	file = []byte(StripAsks(string(file))) // the page as readers get it (asks_test.go)
	for _, ref := range []string{"guides/engines/qdrant.md", "loams://docs/guides/engines/qdrant.md", "https://loams.dev/docs/guides/engines/qdrant", "guides/engines/qdrant"} {
		doc, err := b.Read(ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if doc.Text != string(file) || doc.MIMEType != "text/markdown" || doc.URI != "loams://docs/guides/engines/qdrant.md" {
			t.Errorf("%s: uri %s, type %s, %d bytes of %d", ref, doc.URI, doc.MIMEType, len(doc.Text), len(file))
		}
	}
	sec, err := b.Read("loams://docs/guides/engines/qdrant.md#connect-with-qdrant-client")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sec.Text, "## Connect with qdrant-client\n\nConnect the official Qdrant client") || !strings.Contains(sec.Text, "```python\n") || strings.Contains(sec.Text, "## Collections") {
		t.Errorf("section text:\n%s", sec.Text)
	}
	top, err := b.Read("guides/engines/qdrant.md#qdrant-api")
	if err != nil || !strings.Contains(top.Text, "## Connect with qdrant-client") || !strings.Contains(top.Text, "## Namespaces") {
		t.Errorf("a level-1 section holds its subsections: %v\n%s", err, top.Text)
	}
	snip, err := b.Read("loams://docs/snippets/qdrant/python/connect.py")
	if err != nil || snip.MIMEType != "text/x-python" || !strings.Contains(snip.Text, "QdrantClient") {
		t.Errorf("snippet: %+v %v", snip, err)
	}
	for _, bad := range []string{"guides/nope.md", "../go.mod", "/etc/passwd", "guides/engines/qdrant.md#nope", ""} {
		_, err := b.Read(bad)
		if !errors.Is(err, fs.ErrNotExist) || !errs.Is(err, errs.Usage) {
			t.Errorf("%q: %v, want a not-found usage error", bad, err)
		}
	}
	if _, err := b.Read("guides/engines/qdrant.md#nope"); err == nil || !strings.Contains(errs.As(err).Hint, "#connect-with-qdrant-client") {
		t.Errorf("an unknown anchor's hint should list the page's sections: %v", err)
	}
}

func TestPagesListEveryGuideAndSnippet(t *testing.T) {
	t.Parallel()
	pages, err := Embedded("v").Pages()
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	fs.WalkDir(docs.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if !d.IsDir() && (strings.HasSuffix(p, ".md") || strings.HasPrefix(p, "snippets/")) {
			want++
		}
		return nil
	})
	if len(pages) != want {
		t.Errorf("%d pages, want %d", len(pages), want)
	}
	for _, p := range pages {
		if p.Title == "" || p.Size == 0 || p.URI != URIPrefix+p.Path || p.MIMEType == "text/plain" {
			t.Errorf("page %+v", p)
		}
	}
}

// A mistyped value gets "did you mean", not the list of every combination.
func TestSnippetNotFoundSuggests(t *testing.T) {
	t.Parallel()
	b := Embedded("v")
	tests := []struct{ engine, language, task, want string }{
		{"qdrant", "py", "connect", "did you mean python?"},
		{"qdrant", "pyhton", "connect", "did you mean python?"},
		{"postgres", "python", "connect", "did you mean pg?"},
		{"qdrant", "python", "serach", "did you mean search?"},
		{"qdrant", "python", "sql", "tasks for qdrant/python: "},
	}
	for _, tt := range tests {
		_, err := b.Snippet(tt.engine, tt.language, tt.task)
		e := errs.As(err)
		if e.Code != errs.SnippetNotFound || !strings.Contains(e.Hint, tt.want) {
			t.Errorf("%s/%s/%s: %v (hint %q), want hint with %q", tt.engine, tt.language, tt.task, e.Code, e.Hint, tt.want)
		}
		if strings.Count(e.Hint, "/") > 2 {
			t.Errorf("%s/%s/%s: the hint lists combinations: %q", tt.engine, tt.language, tt.task, e.Hint)
		}
	}
	if s, err := b.Snippet("qdrant", "python", ""); err != nil || s.Task != "connect" {
		t.Errorf("the default task: %+v %v", s, err)
	}
}

// Issue 22: the guide that teaches a topic ranks above a reference page
// whose example line holds the query's words, and a question about
// setting up an app is answered by getting started, not remote deployments.
func TestGuidesAnswerAgentQuestionsFirst(t *testing.T) {
	t.Parallel()
	b := Embedded("v")
	for _, tt := range []struct{ query, want string }{
		{"qdrant port python", "guides/engines/qdrant.md#qdrant-port-and-variables"},
		{"how do I set up a node app", "guides/getting-started.md#"},
		// While no release is published, the ways that work come first.
		{"install the loams server", "guides/server.md#the-ways-that-work-today|guides/server.md#install-a-release"},
		{"check that my setup is healthy", "guides/server.md#check-everything"},
	} {
		res, err := b.Search(tt.query, 3, 0)
		if err != nil || len(res.Results) == 0 {
			t.Fatalf("%q: %v", tt.query, err)
		}
		if got := res.Results[0].URI; !slices.ContainsFunc(strings.Split(tt.want, "|"), func(w string) bool { return strings.HasPrefix(got, URIPrefix+w) }) {
			t.Errorf("%q: first result %s, want %s", tt.query, got, tt.want)
		}
	}
}

// Sections far below the best are left out: they cost the model context.
func TestSearchLeavesOutTheFarBelow(t *testing.T) {
	t.Parallel()
	res, err := Embedded("v").Search("connect to qdrant from python", 20, MaxMaxBytes)
	if err != nil || len(res.Results) == 0 {
		t.Fatal(err)
	}
	all := Embedded("v")
	_ = all.load()
	if n := len(all.index.Search("connect to qdrant from python", 20)); n <= len(res.Results) {
		t.Fatalf("the query matches %d sections, the answer has %d: nothing was left out", n, len(res.Results))
	}
	for _, r := range res.Results {
		if r.Score < relevanceFloor*res.Results[0].Score {
			t.Errorf("%s scores %.3f, under %.0f %% of the best %.3f", r.URI, r.Score, 100*relevanceFloor, res.Results[0].Score)
		}
	}
}

// A contraction is the word it shortens: "don't" is "do" (a stop word),
// never "don" and "t", whose "t" matched every "won't" and "can't".
func TestContractionsAreTheirWords(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"when I don't pass a name":       "pass name",
		"it won't install":               "instal",
		"the stack’s port":               "stack port",
		"os.environ['LOAMS_URL']":        "os.environ os environ loams_url loam url",
		"you're set, we'll see, it'd do": "set see",
	} {
		if got := strings.Join(tokenize(text), " "); got != want {
			t.Errorf("tokenize(%q) = %q, want %q", text, got, want)
		}
	}
}

// Pages is made once per bundle; what one caller does to its list does
// not reach the next.
func TestPagesAreEachCallersOwn(t *testing.T) {
	b := Embedded("test")
	first, err := b.Pages()
	if err != nil || len(first) == 0 {
		t.Fatalf("pages: %d %v", len(first), err)
	}
	want := first[0]
	first[0].Title, first[0].Size = "changed", -1
	again, _ := b.Pages()
	if again[0] != want {
		t.Errorf("second list's first page %+v, want %+v", again[0], want)
	}
}
