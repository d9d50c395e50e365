package mcpserve

import (
	"regexp"
	"strings"
	"testing"

	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/mcptools"
	"loams.dev/cli/pkgadd"
)

// The search hints name every value a tool takes, in people's words, so a
// request for any of them finds the tool in hosts that defer tools (Claude
// Code's ToolSearch matches whole words of the hint): every engine,
// language and task of the snippets, every package add_package may install.
// A value added to the snippets or the allowlist without a hint word fails
// here instead of going unfound.
func TestSearchHintsNameEveryValue(t *testing.T) {
	t.Parallel()
	// The values that are not the words people write: "es" and "pg" are
	// Elasticsearch and Postgres; create_collection is "create a collection".
	spoken := map[string]string{"es": "elasticsearch", "pg": "postgres", "create_collection": "create a collection",
		"hybrid_search": "hybrid search"}
	says := func(hint, value string) bool {
		if w, ok := spoken[value]; ok {
			value = w
		}
		return regexp.MustCompile(`\b` + regexp.QuoteMeta(value) + `\b`).MatchString(hint)
	}
	engines, languages, tasks := docsindex.Embedded("test").Enums()
	snippet := mcptools.SearchHints["get_sdk_snippet"]
	for _, values := range [][]string{engines, languages, tasks} {
		if len(values) == 0 {
			t.Fatal("the embedded snippets list no engines, languages or tasks")
		}
		for _, v := range values {
			if !says(snippet, v) {
				t.Errorf("get_sdk_snippet's hint does not name %q: %s", v, snippet)
			}
		}
	}
	add := mcptools.SearchHints["add_package"]
	for _, p := range pkgadd.Allowed().Logical() {
		if !says(add, p) {
			t.Errorf("add_package's hint does not name the package %q: %s", p, add)
		}
	}
	for _, lang := range strings.Split("typescript python rust go", " ") { // add_package's language field
		if !says(add, lang) {
			t.Errorf("add_package's hint does not name the language %q: %s", lang, add)
		}
	}
}
