package mcpserve

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 22: no JSON loams writes escapes <, > and & (\u003c…): the docs'
// Markdown and "<redacted>" reach the model as written.
func TestAnswersAreNotHTMLEscaped(t *testing.T) {
	t.Parallel()
	tr := run(t, lines(fmt.Sprintf(initLegacy, "2025-11-25"), initDone,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_docs","arguments":{"query":"redacted key in env_export results","limit":10}}}`))
	byID, all := tr.byID, strings.Join(tr.lines, "\n")
	if !strings.Contains(string(byID["2"].Result), ">") {
		t.Fatal("the search found no text with > in it; pick a query that does")
	}
	for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
		if strings.Contains(all, esc) {
			t.Errorf("the answers carry %s", esc)
		}
	}
}
