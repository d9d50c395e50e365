package mcptools

import (
	"slices"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

func TestParse(t *testing.T) {
	got, err := Parse(" env_export, search_docs,search_docs ")
	if err != nil || !slices.Equal(got, []string{"search_docs", "env_export"}) {
		t.Fatalf("got %v %v", got, err)
	}
	for _, bad := range []string{"stack_delete", "Search_docs", "", ","} {
		_, err := Parse(bad)
		if !errs.Is(err, errs.Usage) {
			t.Errorf("%q: got %v", bad, err)
		}
		if bad != "" && bad != "," && !strings.Contains(errs.As(err).Hint, strings.Join(Names, ", ")) {
			t.Errorf("%q: hint does not list the tools: %s", bad, errs.As(err).Hint)
		}
	}
}

func TestFromArgsAndMode(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"mcp", "serve"}, nil, "all tools"},
		{[]string{"mcp", "serve", "--read-only"}, nil, "read-only"},
		{[]string{"mcp", "serve", "--tools", "env_export,search_docs"}, nil, "search_docs,env_export"},
		{[]string{"mcp", "serve", "--tools=loams_info"}, nil, "loams_info"},
		{[]string{"mcp", "serve"}, map[string]string{EnvTools: "stack_status"}, "stack_status"},
		{[]string{"mcp", "serve", "--read-only", "--tools", "env_export,search_docs"}, nil, "search_docs"},
	} {
		if got := Mode(FromArgs(c.args, c.env)); got != c.want {
			t.Errorf("%v %v: got %q, want %q", c.args, c.env, got, c.want)
		}
	}
}

// Every tool has a search hint, and no hint names a tool: the hints are
// users' words, and a tool name in another tool's hint would pull the wrong
// tool up for that name.
func TestSearchHints(t *testing.T) {
	for _, n := range Names {
		h := SearchHints[n]
		if h == "" {
			t.Errorf("%s has no search hint", n)
		}
		for _, other := range Names {
			if strings.Contains(h, other) {
				t.Errorf("%s's hint names the tool %s", n, other)
			}
		}
	}
	if len(SearchHints) != len(Names) {
		t.Errorf("%d hints for %d tools", len(SearchHints), len(Names))
	}
}

// search_docs, stack_status and get_sdk_snippet are loaded up front in
// hosts that defer tools; every other tool stays deferred (no alwaysLoad
// key: the host's default), and every tool carries its hint.
func TestMeta(t *testing.T) {
	for _, n := range Names {
		m := Meta(n)
		if m[MetaSearchHint] != SearchHints[n] {
			t.Errorf("%s: _meta hint %v", n, m[MetaSearchHint])
		}
		_, set := m[MetaAlwaysLoad]
		if want := n == "search_docs" || n == "stack_status" || n == "get_sdk_snippet"; set != want || (set && m[MetaAlwaysLoad] != true) {
			t.Errorf("%s: alwaysLoad %v, want it set: %v", n, m[MetaAlwaysLoad], want)
		}
	}
}
