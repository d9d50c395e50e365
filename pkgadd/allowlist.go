// Package pkgadd adds Loams SDK packages to the user's project by running the
// project's own package manager (npm, pnpm, uv, cargo, go, …), pinned to the
// CLI's minor version. It never edits a manifest itself.
package pkgadd

import (
	_ "embed"
	"fmt"
	"sort"

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

// AllowList maps a logical name (`sdk`) to its name in each registry.
type AllowList map[string]map[Registry]string

// Allowed parses the embedded packages.toml. It is tiny, so it is parsed per
// call rather than cached in package state.
func Allowed() AllowList {
	var raw map[string]map[string]string
	if _, err := toml.Decode(packagesTOML, &raw); err != nil {
		panic(fmt.Sprintf("embedded packages.toml: %v", err)) // a build defect, caught by tests
	}
	out := AllowList{}
	for logical, names := range raw {
		out[logical] = map[Registry]string{}
		for reg, name := range names {
			out[logical][Registry(reg)] = name
		}
	}
	return out
}

// Lookup resolves name (logical or registry name) for reg. known reports
// whether name appears in the list at all; ok whether it exists in reg.
func (a AllowList) Lookup(name string, reg Registry) (registryName string, known, ok bool) {
	if names, found := a[name]; found {
		n, ok := names[reg]
		return n, true, ok
	}
	for _, names := range a {
		for r, n := range names {
			if n == name {
				known = true
				if r == reg {
					return n, true, true
				}
			}
		}
	}
	return "", known, false
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
