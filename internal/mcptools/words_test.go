package mcptools

import (
	"strings"
	"testing"
)

func TestEveryToolHasACommand(t *testing.T) {
	for _, n := range Names {
		if c, ok := Commands[n]; !ok || !strings.HasPrefix(c.Argv(nil), "loams ") {
			t.Errorf("%s: no loams command", n)
		}
	}
}

func TestWordsText(t *testing.T) {
	ro := WordsFor(ReadOnly)
	for _, c := range []struct{ in, want string }{
		{`no stacks yet; call stack_create with {"name":"dev"}`, "no stacks yet; ask the user to run `loams stack create dev`"},
		{`call stack_status with {"name":"dev"} in a minute`, `call stack_status with {"name":"dev"} in a minute`},
		{"ask the user to run `loams server install`; then call stack_create again", "ask the user to run `loams server install`; then ask the user to run `loams stack create NAME`"},
		{"Use it when stack_status shows none, then call env_export.", "Use it when stack_status shows none, then ask the user to run `loams env export --write .env.loams`."},
		{`call env_export with {"path":".env.loams","merge_into":".env"}`, "ask the user to run `loams env export --merge .env`"},
		{`call add_package with {"package":"qdrant"} (or elasticsearch)`, "ask the user to run `loams pkg add qdrant` (or elasticsearch)"},
		{`call stack_create with {"name":"a b"}`, "ask the user to run `loams stack create NAME`"},
		{`call stack_create with {broken`, "ask the user to run `loams stack create NAME` with {broken"},
	} {
		if got := ro.Text(c.in); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
	only := WordsFor([]string{"stack_create"})
	if got := only.Text("Use it when stack_status shows none"); got != "Use it when the user's `loams stack list` shows none" {
		t.Errorf("bare name: %q", got)
	}
	if got := (Words{}).Text("call env_export"); got != "call env_export" {
		t.Errorf("all tools: %q", got)
	}
}
