package mcpserve

import (
	"regexp"
	"strings"
	"testing"

	"loams.dev/cli/internal/mcptools"
)

// wordsProbe is a session that makes the server say everything a model
// reads: the instructions, the tool list, the resource template, the skill
// (resources/read and skills/list), and the hints of the failures that
// suggest another tool (a missing stack, no stacks at all, an unknown
// snippet, a search that matches nothing).
func wordsProbe(enabled []string) string {
	has := func(n string) bool {
		return enabled == nil || strings.Contains(","+strings.Join(enabled, ",")+",", ","+n+",")
	}
	ls := []string{initLine, initDone,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/templates/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"skill://loams/SKILL.md"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"skills/list"}`,
	}
	call := func(id, tool, args string) {
		if has(tool) {
			ls = append(ls, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`}}`)
		}
	}
	call("10", "stack_status", `{"name":"nope"}`)
	call("11", "stack_start", `{"name":"nope"}`)
	call("12", "env_export", `{}`)
	call("13", "get_sdk_snippet", `{"engine":"qdrant","language":"go","task":"hybrid_search"}`)
	call("14", "add_package", `{"package":"left-pad"}`)
	if len(enabled) <= 2 { // the docs index is built per process: keep it to the small modes
		call("15", "search_docs", `{"query":"zqxwvy plokmijn"}`)
	}
	return lines(ls...)
}

// Issue 30: under --read-only and under every --tools subset, nothing the
// server says names a tool the mode leaves out, and where such a tool
// would help the words ask the user to run its loams command.
func TestModeWordsNameOnlyEnabledTools(t *testing.T) {
	t.Parallel()
	modes := [][]string{mcptools.ReadOnly}
	for mask := 1; mask < 1<<len(mcptools.Names)-1; mask++ {
		var m []string
		for i, n := range mcptools.Names {
			if mask&(1<<i) != 0 {
				m = append(m, n)
			}
		}
		modes = append(modes, m)
	}
	for _, enabled := range modes {
		var args []string
		if strings.Join(enabled, ",") == strings.Join(mcptools.ReadOnly, ",") {
			args = []string{"--read-only"}
		} else {
			args = []string{"--tools", strings.Join(enabled, ",")}
		}
		tr := run(t, wordsProbe(enabled), withArgs(args...))
		all := strings.Join(tr.lines, "\n")
		for _, n := range mcptools.WordsFor(enabled).Disabled() {
			if loc := regexp.MustCompile(`\b` + n + `\b`).FindStringIndex(all); loc != nil {
				t.Errorf("%v: the server names %s: …%s…", args, n, all[max(0, loc[0]-150):min(len(all), loc[1]+80)])
				break
			}
		}
		for _, id := range []string{"1", "2", "3", "4", "5"} {
			if tr.byID[id].Result == nil {
				t.Fatalf("%v: no answer to %s: %+v", args, id, tr.byID[id])
			}
		}
	}
}

// What the words say instead: the user's command, with the arguments the
// hint carried.
func TestReadOnlyHintsAskTheUser(t *testing.T) {
	t.Parallel()
	tr := run(t, wordsProbe(mcptools.ReadOnly), withArgs("--read-only"))
	for id, want := range map[string]string{
		"1":  "ask the user to run `loams stack create NAME` to make one",
		"4":  "`loams env export --write .env.loams` (the user runs it)",
		"10": "ask the user to run `loams stack create nope`",
	} {
		if got := string(tr.byID[id].Result); !strings.Contains(got, want) {
			t.Errorf("id %s: want %q in\n%.2000s", id, want, got)
		}
	}
	// All tools: the words are the tools'.
	tr = run(t, wordsProbe(nil))
	if got := string(tr.byID["10"].Result); !strings.Contains(got, `call stack_create with {\"name\":\"nope\"}`) {
		t.Errorf("all tools: %s", got)
	}
}
