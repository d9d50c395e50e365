// Package pkgadd adds Loams SDK packages and the compatibility clients the
// snippets use to the user's project by running the project's own package
// manager (npm, pnpm, uv, cargo, go, pip in a virtual environment, …),
// pinned to the CLI's minor version (Loams packages) or to the major
// version the snippets are checked against (compatibility clients). The
// only manifest it edits itself is requirements.txt, which pip cannot.
package pkgadd

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

//go:embed packages.toml
var packagesTOML string

// Registry is where a package is published.
type Registry string

const (
	NPM    Registry = "npm"
	PyPI   Registry = "pypi"
	Crates Registry = "crates"
	GoMod  Registry = "go"
)

// Entry is one package in one registry.
type Entry struct {
	Name string // as the registry knows it: @qdrant/js-client-rest, psycopg[binary]
	// Checked is the version the snippets are checked against; "" for a
	// Loams package, which follows the CLI's own version.
	Checked string
}

// Compat reports whether e is a compatibility client rather than a Loams package.
func (e Entry) Compat() bool { return e.Checked != "" }

// AllowList maps a logical name (`sdk`) to its entry in each registry.
type AllowList map[string]map[Registry]Entry

// parseEntry splits "name@version" at the last @ after the first character
// (npm scopes start with one).
func parseEntry(s string) Entry {
	if i := strings.LastIndex(s, "@"); i > 0 {
		return Entry{Name: s[:i], Checked: s[i+1:]}
	}
	return Entry{Name: s}
}

// Allowed parses the embedded packages.toml. It is tiny, so it is parsed per
// call rather than cached in package state.
func Allowed() AllowList {
	var raw map[string]map[string]string
	if _, err := toml.Decode(packagesTOML, &raw); err != nil {
		panic(fmt.Sprintf("embedded packages.toml: %v", err)) // a build defect, caught by tests
	}
	out := AllowList{}
	for logical, names := range raw {
		out[logical] = map[Registry]Entry{}
		for reg, name := range names {
			out[logical][Registry(reg)] = parseEntry(name)
		}
	}
	return out
}

// Lookup resolves name (logical or registry name) for reg. known reports
// whether name appears in the list at all; ok whether it exists in reg.
func (a AllowList) Lookup(name string, reg Registry) (e Entry, known, ok bool) {
	if names, found := a[name]; found {
		e, ok := names[reg]
		return e, true, ok
	}
	for _, names := range a {
		for r, e := range names {
			if e.Name == name {
				known = true
				if r == reg {
					return e, true, true
				}
			}
		}
	}
	return Entry{}, known, false
}

// LogicalOf returns the logical name of name ("sdk" for @loams/client).
func (a AllowList) LogicalOf(name string) string {
	if _, ok := a[name]; ok {
		return name
	}
	for logical, names := range a {
		for _, e := range names {
			if e.Name == name {
				return logical
			}
		}
	}
	return ""
}

// Registries lists the registries where name (logical or registry name) exists.
func (a AllowList) Registries(name string) []Registry {
	var out []Registry
	for _, r := range []Registry{NPM, PyPI, Crates, GoMod} {
		if _, _, ok := a.Lookup(name, r); ok {
			out = append(out, r)
		}
	}
	return out
}

// Logical lists the logical names, sorted, for hints.
func (a AllowList) Logical() []string {
	out := make([]string, 0, len(a))
	for k := range a {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
