package mcptools

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// Command is the `loams` command a person runs for what a tool does: what
// the model is told to ask the user for when the entry leaves the tool
// out (spec mcp.md, "What the model reads"). A call's arguments become the
// command's arguments where they have one.
type Command struct {
	Argv func(args map[string]any) string
}

// Commands is the registry: one row per tool, in Names order.
var Commands = map[string]Command{
	"search_docs": {func(a map[string]any) string {
		return "loams docs search " + quoted(a, "query", "WORDS")
	}},
	"get_sdk_snippet": {func(a map[string]any) string {
		return "loams docs snippet" + flag(a, "engine") + flag(a, "language") + flag(a, "task")
	}},
	"loams_info":   {func(map[string]any) string { return "loams doctor" }},
	"stack_status": {func(a map[string]any) string { return orWith("loams stack list", "loams stack describe", a, "name") }},
	"stack_create": {func(a map[string]any) string { return "loams stack create " + word(a, "name", "NAME") }},
	"stack_start":  {func(a map[string]any) string { return "loams stack start " + word(a, "name", "NAME") }},
	"env_export": {func(a map[string]any) string {
		cmd := "loams env export --write " + word(a, "path", ".env.loams")
		if m := word(a, "merge_into", ""); m != "" {
			cmd = "loams env export --merge " + m
		}
		return cmd + stackFlag(a)
	}},
	"add_package": {func(a map[string]any) string { return "loams pkg add " + word(a, "package", "PACKAGE") }},
}

// Words renders text for a model under an access mode. The zero value
// (every tool enabled) changes nothing.
type Words struct {
	enabled []string // nil: all
}

// WordsFor is the renderer for the tools an entry enables (nil: all).
func WordsFor(enabled []string) Words { return Words{enabled: enabled} }

// Has reports whether the model can call the tool.
func (w Words) Has(name string) bool { return w.enabled == nil || slices.Contains(w.enabled, name) }

// AskUser is what stands in for a call of a tool the mode leaves out.
func (w Words) AskUser(tool string, args map[string]any) string {
	return "ask the user to run `" + Commands[tool].Argv(args) + "`"
}

// callRE finds a tool named in prose: "call NAME", optionally "with" a JSON
// object of arguments, optionally "again"; or NAME alone.
var callRE = regexp.MustCompile(`(call )?\b(` + strings.Join(Names, "|") + `)\b( with \{)?`)

// Text rewrites every mention of a tool the mode leaves out: "call TOOL
// with {args} again" becomes "ask the user to run `loams …`" (the
// arguments carried into the command), a bare name "the user's `loams …`".
// Hints are written in the packages below both faces, naming the tool that
// would help; this is the one place that keeps them true to the mode.
func (w Words) Text(s string) string {
	if w.enabled == nil || !callRE.MatchString(s) {
		return s
	}
	var b strings.Builder
	for {
		m := callRE.FindStringSubmatchIndex(s)
		if m == nil {
			break
		}
		name := s[m[4]:m[5]]
		if w.Has(name) {
			b.WriteString(s[:m[1]])
			s = s[m[1]:]
			continue
		}
		b.WriteString(s[:m[0]])
		rest := s[m[1]:]
		var args map[string]any
		if m[6] >= 0 { // " with {": read the object that starts there
			dec := json.NewDecoder(strings.NewReader(s[m[6]+len(" with "):]))
			if dec.Decode(&args) == nil {
				rest = s[m[6]+len(" with ")+int(dec.InputOffset()):]
			} else {
				rest = s[m[6]:]
			}
		}
		if m[2] >= 0 { // "call NAME"
			b.WriteString(w.AskUser(name, args))
			rest = strings.TrimPrefix(rest, " again")
		} else {
			b.WriteString("the user's `" + Commands[name].Argv(args) + "`")
		}
		s = rest
	}
	b.WriteString(s)
	return b.String()
}

// Disabled are the tools the mode leaves out, in Names order.
func (w Words) Disabled() []string {
	var out []string
	for _, n := range Names {
		if !w.Has(n) {
			out = append(out, n)
		}
	}
	return out
}

func word(a map[string]any, key, dflt string) string {
	if v, ok := a[key].(string); ok && v != "" && !strings.ContainsAny(v, " `'\"<>") {
		return v
	}
	return dflt
}

func quoted(a map[string]any, key, dflt string) string {
	v, _ := a[key].(string)
	if v == "" || strings.ContainsAny(v, "`\"\\$") {
		v = dflt
	}
	return `"` + v + `"`
}

func flag(a map[string]any, key string) string {
	if v := word(a, key, ""); v != "" {
		return " --" + key + " " + v
	}
	return ""
}

func stackFlag(a map[string]any) string {
	if v := word(a, "name", ""); v != "" {
		return " --stack " + v
	}
	return ""
}

func orWith(bare, with string, a map[string]any, key string) string {
	if v := word(a, key, ""); v != "" {
		return with + " " + v
	}
	return bare
}
