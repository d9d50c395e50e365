package commands

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// The review: `loams stack create --name x --port 1` answered "did you
// mean --o?". A suggestion is a real long flag of the command, and a word
// of a flag (`port` of `--port-base`) finds it.
func TestFlagSuggestionNamesRealLongFlags(t *testing.T) {
	r := runLoams(t, nil, false, "stack", "create", "--name", "x", "--port", "1")
	if r.code != 2 || !strings.Contains(r.stderr, "did you mean --port-base?") {
		t.Fatalf("exit %d: %q", r.code, r.stderr)
	}
	m := newMentionChecker()
	var walk func(c *cli.Command)
	walk = func(c *cli.Command) {
		names := flagNames(c)
		for _, typed := range []string{"o", "p", "x", "ab", "xyz", "port", "q", "oo", "vv"} {
			got := suggestFlag(typed, names)
			if got != "" && (len(got) < 2 || !m.hasFlag(c, got)) {
				t.Errorf("%s: --%s suggests --%s", c.FullName(), typed, got)
			}
		}
		for _, s := range c.Commands {
			walk(s)
		}
	}
	walk(m.root)
}
