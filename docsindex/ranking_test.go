package docsindex

import (
	"strings"
	"testing"
)

// A common verb in a heading does not make the heading the answer: "keep"
// in "where does loams keep the api key" asks where the key is stored, not
// how to keep a stack running.
func TestSearchLightVerbInAHeading(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "guides/stacks.md", TitlePath: []string{"Stacks", "Keep a stack running"},
			Body: "loams stack autostart writes a user unit that starts the stack at login."},
		{Path: "guides/native.md", TitlePath: []string{"Native", "Query"}, Body: "Send the API key in the header."},
		{Path: "guides/qdrant.md", TitlePath: []string{"Qdrant", "Connect"}, Body: "The client takes the API key."},
		{Path: "guides/es.md", TitlePath: []string{"Elasticsearch", "Connect"}, Body: "Pass the API key to the client."},
		{Path: "guides/env-and-secrets.md", TitlePath: []string{"Secrets", "LOAMS_API_KEY: where the stack's key is stored"},
			Body: "The API key of a stack is stored in the system keyring; loams never writes the key to a file."},
		{Path: "guides/stacks.md", TitlePath: []string{"Stacks", "Delete a stack"},
			Body: "loams stack delete removes the stack and its data."},
	})
	if got := first(ix, "where does loams keep the api key"); !strings.Contains(got, "LOAMS_API_KEY") {
		t.Errorf("first = %s, want the key's section", got)
	}
	if got := first(ix, "keep a stack running after logout"); !strings.Contains(got, "Keep a stack running") {
		t.Errorf("asked by its heading: first = %s, want Keep a stack running", got)
	}
}

// A file named in a path is found by its name: the section that writes
// ~/.cursor/mcp.json answers "cursor mcp.json" before the quirks
// of that file.
func TestSearchFindsAFileByItsNameInAPath(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "guides/mcp/cursor.md", TitlePath: []string{"Cursor", "Install loams in Cursor"},
			Body: "loams mcp install --agent cursor writes ~/.cursor/mcp.json."},
		{Path: "guides/mcp/cursor.md", TitlePath: []string{"Cursor", "Known quirks"},
			Body: "Before the first edit the file is copied to a backup. A read-only mcp.json is refused. JSON with comments is refused."},
	})
	if got := first(ix, "cursor mcp.json"); !strings.Contains(got, "Install loams in Cursor") {
		t.Errorf("first = %s, want the section that writes the file", got)
	}
}

// A word of the question that no heading of the docs uses ("several",
// "configured") is the asker's prose: it counts less toward "has every
// word" than a word that names a topic somewhere.
func TestSearchAskersProseWordsCountLess(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "guides/deployments.md", TitlePath: []string{"Deployments", "Which server a command talks to"},
			Body: "A command talks to the server given with --server."},
		{Path: "guides/packages.md", TitlePath: []string{"Packages", "From a coding agent"},
			Body: "Several agents, several at once."},
		{Path: "guides/stacks.md", TitlePath: []string{"Stacks", "Ports"}, Body: "The server listens on the ports the command prints."},
		{Path: "guides/stacks.md", TitlePath: []string{"Stacks", "Logs"}, Body: "The server writes its log; the command shows it."},
	})
	if got := first(ix, "several servers, which command"); !strings.Contains(got, "Which server a command talks to") {
		t.Errorf("first = %s, want Which server a command talks to", got)
	}
}

// A section's lead, the sentence that says what a reader would be trying
// to do there, counts more than the same words further down another
// section.
func TestSearchLeadCountsTwice(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "guides/a.md", TitlePath: []string{"Guide", "Alpha"},
			Body: "The files sit in one directory, named by date. Rotate the archive weekly."},
		{Path: "guides/b.md", TitlePath: []string{"Guide", "Beta"},
			Body: "Rotate the archive weekly. The files sit in one directory, named by date."},
		{Path: "guides/c.md", TitlePath: []string{"Other", "Unrelated"}, Body: "Nothing about it."},
	})
	if got := first(ix, "rotate archive"); !strings.Contains(got, "Beta") {
		t.Errorf("first = %s, want the section whose lead says it", got)
	}
}
