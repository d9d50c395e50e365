package commands

import (
	"strings"
	"testing"
)

// TERM=dumb (Emacs shell, some CI consoles) cannot show escapes: no colour
// even on a terminal, unless --color always asks for it.
func TestNoColourOnDumbTerminal(t *testing.T) {
	t.Parallel()
	env := map[string]string{"LOAMS_HOME": t.TempDir(), "TERM": "dumb"}
	if r := runLoams(t, env, true, "configure", "list"); r.code != 0 || strings.Contains(r.stdout, "\x1b[") {
		t.Fatalf("TERM=dumb still coloured: %d %q", r.code, r.stdout)
	}
	if r := runLoams(t, env, true, "--color", "always", "configure", "list"); !strings.Contains(r.stdout, "\x1b[") {
		t.Fatalf("--color always ignored under TERM=dumb: %q", r.stdout)
	}
	env["TERM"] = "xterm-256color"
	if r := runLoams(t, env, true, "configure", "list"); !strings.Contains(r.stdout, "\x1b[") {
		t.Fatalf("a capable terminal lost its colour: %q", r.stdout)
	}
}

// version -o text is one record of fields, not the sentence people read.
func TestVersionText(t *testing.T) {
	t.Parallel()
	r := runLoams(t, nil, false, "-o", "text", "version")
	cells := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\t")
	if r.code != 0 || len(cells) != 7 || cells[0] != "loams" || strings.Contains(r.stdout, "(") {
		t.Fatalf("version text: %q", r.stdout)
	}
}
