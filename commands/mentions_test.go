package commands

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/iostreams"
)

// mentionChecker checks the commands and flags a text names against the
// real command tree.
type mentionChecker struct {
	root   *cli.Command
	parent map[*cli.Command]*cli.Command
}

func newMentionChecker() mentionChecker {
	ios, _, _, _ := iostreams.Test()
	m := mentionChecker{NewRoot(&Factory{IO: ios, Getenv: func(string) string { return "" }}), map[*cli.Command]*cli.Command{}}
	// urfave adds `completions` (and help flags) when the tree first runs.
	m.root.Run(context.Background(), []string{"loams", "version"})
	var walk func(c *cli.Command)
	walk = func(c *cli.Command) {
		for _, s := range c.Commands {
			m.parent[s] = c
			walk(s)
		}
	}
	walk(m.root)
	return m
}

// flags are the flags c accepts: its own and its ancestors'.
func (m mentionChecker) flags(c *cli.Command) []string {
	var out []string
	for ; c != nil; c = m.parent[c] {
		for _, fl := range c.Flags {
			out = append(out, fl.Names()...)
		}
	}
	return out
}

// flag is the flag c accepts under name, or nil.
func (m mentionChecker) flag(c *cli.Command, name string) cli.Flag {
	for ; c != nil; c = m.parent[c] {
		for _, fl := range c.Flags {
			for _, n := range fl.Names() {
				if n == name {
					return fl
				}
			}
		}
	}
	return nil
}

func (m mentionChecker) hasFlag(c *cli.Command, name string) bool {
	for _, n := range m.flags(c) {
		if n == name {
			return true
		}
	}
	return false
}

var (
	// backticked spans and bare words in prose
	tickedSpan = regexp.MustCompile("`[^`]*`?")
	flagToken  = regexp.MustCompile(`^--[a-z][a-z0-9-]*`)
)

// check returns what is wrong with text: a `loams …` mention whose command
// or flags do not exist, or a bare --flag that the command the text speaks
// for (ctx; nil: any command) does not have.
func (m mentionChecker) check(text string, ctx *cli.Command) []string {
	var problems []string
	consumed := map[int]bool{} // byte offsets of flags checked as part of a mention
	for _, loc := range tickedSpan.FindAllStringIndex(text, -1) {
		span := strings.Trim(text[loc[0]:loc[1]], "`")
		if rest, ok := strings.CutPrefix(span, "loams "); ok {
			problems = append(problems, m.mention(rest, true)...)
			for i := loc[0]; i < loc[1]; i++ {
				consumed[i] = true
			}
		}
	}
	// Prose mentions (no backticks): the command path only.
	for i := 0; ; {
		j := strings.Index(text[i:], "loams ")
		if j < 0 {
			break
		}
		at := i + j
		i = at + len("loams ")
		if consumed[at] || at > 0 && !strings.ContainsAny(text[at-1:at], " (\n") {
			continue
		}
		problems = append(problems, m.mention(text[i:], false)...)
	}
	for _, f := range strings.Fields(text) {
		name := flagToken.FindString(strings.Trim(f, "`(),.;:'\""))
		if name == "" {
			continue
		}
		off := strings.Index(text, f)
		if consumed[off] {
			continue
		}
		if !m.flagSomewhere(strings.TrimPrefix(name, "--"), ctx) {
			where := "any command"
			if ctx != nil {
				where = "`" + ctx.FullName() + "`"
			}
			problems = append(problems, name+" is not a flag of "+where)
		}
	}
	return problems
}

// mention walks words after `loams`: subcommands, then flags (each must
// exist on the command reached) and their values. In prose (full=false)
// it stops at the first word that is not a subcommand.
func (m mentionChecker) mention(rest string, full bool) []string {
	// A pipe, redirection or comment ends the loams command line.
	for _, end := range []string{" | ", " > ", " >> ", " < ", ";", " && ", " #"} {
		if i := strings.Index(rest, end); i >= 0 {
			rest = rest[:i]
		}
	}
	words := strings.Fields(rest)
	cmd := m.root
	var problems []string
	i := 0
	for ; i < len(words); i++ {
		w := strings.TrimRight(words[i], ".,;:)'\"")
		if strings.ContainsAny(w, "%<[|…") || w == "" {
			return problems // a format verb or placeholder: nothing to check beyond
		}
		if sub := cmd.Command(w); sub != nil {
			cmd = sub
			if cmd.SkipFlagParsing {
				return problems // the server's own commands: its flags are not ours
			}
			continue
		}
		if full && strings.HasPrefix(w, "-") && len(w) > 1 {
			// A flag before the subcommand (`loams --profile work env export`):
			// it must exist here; a value flag takes the next word.
			name := strings.TrimLeft(strings.SplitN(w, "=", 2)[0], "-")
			if cmd == m.root && (name == "version" || name == "V") {
				continue // `loams --version` runs `loams version`
			}
			if fl := m.flag(cmd, name); fl == nil {
				return append(problems, "`loams "+rest+"`: "+cmd.FullName()+" has no flag --"+name)
			} else if _, isBool := fl.(*cli.BoolFlag); !isBool && !strings.Contains(w, "=") {
				i++
			}
			continue
		}
		break
	}
	if !full {
		return problems
	}
	if i < len(words) && words[i] == strings.ToUpper(words[i]) && !strings.HasPrefix(words[i], "-") {
		return problems // COMMAND, NAME: a placeholder for any command
	}
	// A group takes no arguments, unless it says it does (`stack snapshot NAME`).
	if len(cmd.Commands) > 0 && cmd.ArgsUsage == "" && i < len(words) && !strings.HasPrefix(words[i], "-") {
		return append(problems, "`loams "+rest+"`: no command "+strconv.Quote(words[i]))
	}
	for ; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") || w == "-" || w == "--" {
			continue // a positional argument or a flag's value
		}
		name := strings.TrimLeft(strings.SplitN(w, "=", 2)[0], "-")
		if strings.ContainsAny(name, "%<[") {
			continue
		}
		if name == "help" || name == "h" {
			continue
		}
		if !m.hasFlag(cmd, name) {
			problems = append(problems, "`loams "+rest+"`: "+cmd.FullName()+" has no flag --"+name)
		}
	}
	return problems
}

// flagSomewhere: on ctx's lineage, or (ctx nil) on any command.
func (m mentionChecker) flagSomewhere(name string, ctx *cli.Command) bool {
	if name == "help" {
		return true
	}
	if ctx != nil {
		return m.hasFlag(ctx, name)
	}
	found := false
	var walk func(c *cli.Command)
	walk = func(c *cli.Command) {
		for _, fl := range c.Flags {
			for _, n := range fl.Names() {
				found = found || n == name
			}
		}
		for _, s := range c.Commands {
			walk(s)
		}
	}
	walk(m.root)
	return found
}

// The checker itself: it must catch what the issue found.
func TestMentionChecker(t *testing.T) {
	m := newMentionChecker()
	stackLogs := m.root.Command("stack").Command("logs")
	tests := []struct {
		text string
		ctx  *cli.Command
		bad  bool
	}{
		{"run `loams stack create --name dev`", nil, false},
		{"run `loams stack create dev --engines qdrant`", nil, false},
		{"run `loams stack craete --name dev`", nil, true},
		{"run `loams stack create --nme dev`", nil, true},
		{"run `loams -o json stack list`", nil, false},
		{"run `loams dev --data-dir x`", nil, false}, // the server's flags
		{"run `loams COMMAND --help`", nil, false},
		{"run loams init in your project", nil, false},
		{"did you mean --lines?", stackLogs, false},
		{"did you mean --name?", stackLogs, false},
		{"did you mean --tail?", stackLogs, true},
		{"or pass --project-dir", stackLogs, true},
		{"or pass --no-such-flag", nil, true},
		{"`loams completions bash > ~/.bash_completion`", nil, false},
		{"`loams stack list -o text | cut -f1`", nil, false},
		{"`loams dev|standalone|cluster …`", nil, false},
		{"`loams --profile staging login --with-api-key < key.txt`", nil, false},
		{"`loams -o json --quiet stack list`", nil, false},
		{"`loams --version`", nil, false},
		{"`loams --profile staging stack lst`", nil, true},
		{"`loams --bogus stack list`", nil, true},
	}
	for _, tt := range tests {
		if got := m.check(tt.text, tt.ctx); len(got) > 0 != tt.bad {
			t.Errorf("%q: problems %v, want bad=%v", tt.text, got, tt.bad)
		}
	}
}
