package docsindex

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

func TestTokenizeCodeForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string // every one must be among the tokens
	}{
		{"LOAMS_API_KEY", []string{"loams_api_key", "loam", "api", "key"}},
		{"call stack_create", []string{"stack_create", "stack", "creat"}},
		{"pass --wait-timeout 2m", []string{"wait-timeout", "wait", "timeout"}},
		{"the upsertPoints method", []string{"upsertpoints", "upsert", "point"}},
		{"open 127.0.0.1:6333", []string{"127.0.0.1:6333", "6333"}},
		{"Running stacks restarted", []string{"run", "stack", "restart"}},
		{"edit ~/.cursor/mcp.json", []string{"cursor/mcp.json", "mcp.json", "cursor", "mcp", "json"}},
	}
	for _, tt := range tests {
		got := tokenize(tt.text)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("tokenize(%q) = %v, missing %q", tt.text, got, w)
			}
		}
	}
	if got := tokenize("the and of"); len(got) != 0 {
		t.Errorf("stop words are tokens: %v", got)
	}
}

// A small bundle where each query has one right answer.
var testDocs = fstest.MapFS{
	"guides/stacks.md": {Data: []byte("# Stacks\n\nA stack is one server.\n\n" +
		"## Ports\n\nThe Qdrant REST port is 127.0.0.1:6333 for the first stack.\n\n" +
		"## Timeouts\n\nPass --wait-timeout to wait longer for a slow start.\n")},
	"guides/env.md": {Data: []byte("# Environment\n\nYour app reads LOAMS_API_KEY and LOAMS_URL from .env.loams.\n\n" +
		"## Agents\n\nThe stack_create tool makes a stack for an agent.\n")},
	"guides/long.md": {Data: []byte("# Long page\n\n" + strings.Repeat("filler words about nothing in particular ", 30) +
		"the needle keyword sits here " + strings.Repeat("more filler text follows after it ", 30) + "\n")},
	"snippets/qdrant/python/search.py": {Data: []byte("# packages: qdrant-client\n# env: QDRANT_URL, LOAMS_API_KEY\n# doc: guides/stacks.md\n" +
		"import os\nclient.query_points(collection_name=\"docs\")\n")},
}

func TestSearchFindsCodeFormsWholeAndByParts(t *testing.T) {
	t.Parallel()
	b := Open(testDocs, "test")
	tests := []struct{ query, wantPath, wantSection string }{
		{"LOAMS_API_KEY", "guides/env.md", "Environment"},
		{"api key", "guides/env.md", "Environment"},
		{"stack_create", "guides/env.md", "Environment › Agents"},
		{"--wait-timeout", "guides/stacks.md", "Stacks › Timeouts"},
		{"wait timeout", "guides/stacks.md", "Stacks › Timeouts"},
		{"127.0.0.1:6333", "guides/stacks.md", "Stacks › Ports"},
		{"6333", "guides/stacks.md", "Stacks › Ports"},
		{"ports", "guides/stacks.md", "Stacks › Ports"},              // title boost over a body mention
		{"slowly starting", "guides/stacks.md", "Stacks › Timeouts"}, // stems: slow, start
		{"query_points", "snippets/qdrant/python/search.py", ""},
	}
	for _, tt := range tests {
		res, err := b.Search(tt.query, 5, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 {
			t.Errorf("%q: no results", tt.query)
			continue
		}
		top := res.Results[0]
		if top.Path != tt.wantPath || tt.wantSection != "" && top.Section != tt.wantSection {
			t.Errorf("%q: top result %s (%s), want %s (%s)", tt.query, top.Path, top.Section, tt.wantPath, tt.wantSection)
		}
	}
	res, _ := b.Search("kubernetes helm", 5, 0)
	if len(res.Results) != 0 || res.Hint == "" {
		t.Errorf("a query matching nothing: %+v, want no results and a hint", res)
	}
}

func TestExcerptIsShortAroundTheMatchOnWordBoundaries(t *testing.T) {
	t.Parallel()
	res, err := Open(testDocs, "test").Search("needle", 1, 0)
	if err != nil || len(res.Results) != 1 {
		t.Fatalf("needle: %+v %v", res, err)
	}
	ex := res.Results[0].Summary()
	if !strings.Contains(ex, "needle") {
		t.Errorf("excerpt misses the match: %q", ex)
	}
	plain := strings.Trim(ex, "…")
	if utf8.RuneCountInString(ex) > excerptLen || !strings.HasPrefix(ex, "…") || !strings.HasSuffix(ex, "…") {
		t.Errorf("excerpt of %d characters, want ≤%d with both cuts marked: %q", utf8.RuneCountInString(ex), excerptLen, ex)
	}
	body := strings.Join(strings.Fields(string(testDocs["guides/long.md"].Data)), " ")
	if !strings.Contains(body, " "+plain+" ") {
		t.Errorf("excerpt is not cut on word boundaries: %q", ex)
	}
}

func TestSectionsCarryTitlePathsAndAnchors(t *testing.T) {
	t.Parallel()
	secs := splitSections("guides/stacks.md", string(testDocs["guides/stacks.md"].Data))
	var got []string
	for _, s := range secs {
		got = append(got, strings.Join(s.TitlePath, " › ")+"#"+s.Anchor)
	}
	want := []string{"Stacks#stacks", "Stacks › Ports#ports", "Stacks › Timeouts#timeouts"}
	if !slices.Equal(got, want) {
		t.Errorf("sections = %q, want %q", got, want)
	}
}

// Cuts never split a multi-byte character, and the ellipses fit the limit.
func TestExcerptOfMultibyteText(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("données façade élan ", 40) + "cible " + strings.Repeat("réglage école ", 40)
	ex := excerpt(body, []string{"cible"})
	if !utf8.ValidString(ex) || utf8.RuneCountInString(ex) > excerptLen || !strings.Contains(ex, "cible") {
		t.Errorf("excerpt (%d runes, valid %v): %q", utf8.RuneCountInString(ex), utf8.ValidString(ex), ex)
	}
}
