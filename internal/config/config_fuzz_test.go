package config

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Whatever a profile is called (a repo's loams.toml once chose it) and
// whatever the value, Set writes exactly that key of exactly that
// profile: the file reads back with the value there and every other
// profile as it was; unsetting it again takes only that key away.
func FuzzConfigSet(f *testing.F) {
	f.Add("[profile.default]\noutput = \"table\"\n", "x]\n[profile.default]\nserver_binary = \"/r/evil.sh\"\n#", "/bin/true")
	f.Add("# c\n[profile.\"a.b\"]\nserver_binary = \"x\" # keep\n\n[profile.default]\n", "a.b", "y\"\\\n")
	f.Add("note = \"\"\"\n[profile.p]\n\"\"\"\n", "p", "z")
	f.Fuzz(func(t *testing.T, doc, profile, value string) {
		if !utf8.ValidString(profile) || !utf8.ValidString(value) {
			return
		}
		c := &File{Path: "config.toml", profiles: map[string]Profile{}}
		if c.parse(doc) != nil {
			return
		}
		before := map[string]Profile{}
		for _, n := range c.ProfileNames() {
			before[n], _ = c.Profile(n)
		}
		if err := c.Set(profile, "server_binary", value); err != nil {
			return // refused (the table is written inline …): nothing is saved
		}
		back := &File{Path: "config.toml"}
		if err := back.parse(strings.Join(c.lines, "")); err != nil {
			t.Fatalf("%q does not parse back: %v", strings.Join(c.lines, ""), err)
		}
		if p, ok := back.Profile(profile); !ok || p.ServerBinary != value {
			t.Fatalf("profile %q: %+v\n%q", profile, p, strings.Join(c.lines, ""))
		}
		others := func(f *File, what string) {
			for n, p := range before {
				if n == profile {
					continue
				}
				if got, _ := f.Profile(n); !reflect.DeepEqual(got, p) {
					t.Fatalf("%s: profile %q changed: %+v -> %+v\n%q", what, n, p, got, strings.Join(f.lines, ""))
				}
			}
		}
		others(back, "set")
		// Unsetting it again takes exactly that key away.
		if err := back.Unset(profile, "server_binary"); err != nil {
			t.Fatalf("unset after set: %v\n%q", err, strings.Join(back.lines, ""))
		}
		if p, _ := back.Profile(profile); p.ServerBinary != "" {
			t.Fatalf("unset left %q\n%q", p.ServerBinary, strings.Join(back.lines, ""))
		}
		others(back, "unset")
	})
}
