// Package envfile renders a stack's connection settings as .env.loams, as
// shell exports and as a marked block merged into the user's own .env. It is
// the one place a stack's key is revealed: the user asked for these files.
package envfile

import (
	"fmt"
	"strings"
	"time"

	"loams.dev/cli/secret"
)

// Redacted stands in for the key wherever the output may reach a model
// (json output, MCP results): the value is in the file, not in the answer.
const Redacted = "<redacted: in .env.loams>"

// Var is one connection setting of a stack.
type Var struct{ Name, Value string }

// Stack is what a .env.loams is made from: the stack's name, its engines'
// variables in registry order (native first, without LOAMS_STACK and
// LOAMS_API_KEY) and its key.
type Stack struct {
	Name string
	Vars []Var
	Key  secret.Secret
	// Endpoint is set for a remote profile's settings (remote.go): Name is
	// then the profile, and the file has no LOAMS_STACK.
	Endpoint string
}

// nativeVars are the native engine's variables, which LOAMS_API_KEY follows
// so the file reads stack, server, key, then the other engines.
var nativeVars = map[string]bool{"LOAMS_URL": true, "LOAMS_ENDPOINT": true}

type entry struct {
	name, value string
	secret      bool
}

// entries orders the file: LOAMS_STACK, the native variables, LOAMS_API_KEY,
// then the other engines' variables.
func (s Stack) entries() []entry {
	out := s.head()
	at := len(out)
	for _, v := range s.Vars {
		out = append(out, entry{name: v.Name, value: v.Value})
		if nativeVars[v.Name] {
			at = len(out)
		}
	}
	key := entry{name: "LOAMS_API_KEY", value: s.Key.Reveal(), secret: true}
	return append(out[:at], append([]entry{key}, out[at:]...)...)
}

// Names lists the variables in file order.
func (s Stack) Names() []string {
	var out []string
	for _, e := range s.entries() {
		out = append(out, e.name)
	}
	return out
}

// Values maps every variable to its value, with the key redacted: safe for
// json output and MCP results.
func (s Stack) Values() map[string]string {
	out := map[string]string{}
	for _, e := range s.entries() {
		if e.secret {
			out[e.name] = Redacted
		} else {
			out[e.name] = e.value
		}
	}
	return out
}

// Header is the first line of .env.loams; it is the only line that changes
// between two writes of the same stack.
func Header(version, stack string, now time.Time) string {
	return fmt.Sprintf(headerPrefix+"%s for stack %q at %s. Do not commit.", version, stack, now.UTC().Format(time.RFC3339))
}

// headerPrefix starts every header loams writes, whatever its version.
const headerPrefix = "# Written by loams "

// Dotenv renders the whole .env.loams file.
func (s Stack) Dotenv(version string, now time.Time) []byte {
	var b strings.Builder
	b.WriteString(s.header(version, now) + "\n")
	b.WriteString(s.lines("\n"))
	return []byte(b.String())
}

// lines renders KEY=value lines, each ended by eol.
func (s Stack) lines(eol string) string {
	var b strings.Builder
	for _, e := range s.entries() {
		b.WriteString(e.name + "=" + Quote(e.value) + eol)
	}
	return b.String()
}

// Shell renders `export K='v'` lines for eval in sh, bash and zsh.
func (s Stack) Shell() []byte {
	var b strings.Builder
	for _, e := range s.entries() {
		b.WriteString("export " + e.name + "=" + ShellQuote(e.value) + "\n")
	}
	return []byte(b.String())
}

// Quote writes a value the way dotenv parsers (dotenv, python-dotenv,
// godotenv, docker compose) read it back unchanged: bare when plain, single
// quotes (no expansion) when it has spaces, #, quotes, = or $, and double
// quotes with escapes when it has a single quote or a newline.
func Quote(v string) string {
	if v == "" {
		return ""
	}
	if !strings.ContainsAny(v, " \t#'\"=$\\`\n\r") {
		return v
	}
	if !strings.ContainsAny(v, "'\n\r") {
		return "'" + v + "'"
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`", "\n", `\n`, "\r", `\r`)
	return `"` + r.Replace(v) + `"`
}

// ShellQuote single-quotes v for POSIX shells.
func ShellQuote(v string) string {
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}
