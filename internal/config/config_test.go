package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
)

func TestSetKeepsCommentsAndUnknownKeys(t *testing.T) {
	const src = `# my loams settings
[profile.default] # main
default_stack = "dev"   # the one I use
future_key = 42

[profile.work]
output = "json"

[other]
x = 1`
	tests := []struct {
		name, profile, key, value string
		want                      string
	}{
		{"replace keeps trailing comment", "default", "default_stack", "prod",
			strings.Replace(src, `default_stack = "dev"   # the one I use`, `default_stack = "prod" # the one I use`, 1)},
		{"insert after last key of table", "default", "secrets", "file",
			strings.Replace(src, "future_key = 42\n", "future_key = 42\nsecrets = \"file\"\n", 1)},
		{"new table appended", "ci", "output", "text",
			src + "\n\n[profile.ci]\noutput = \"text\"\n"},
		{"quoted values", "work", "server_binary", `/opt/my "loams"/bin`,
			strings.Replace(src, "output = \"json\"\n", "output = \"json\"\nserver_binary = \"/opt/my \\\"loams\\\"/bin\"\n", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "config.toml")
			os.WriteFile(p, []byte(src), 0o600)
			f, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Set(tt.profile, tt.key, tt.value); err != nil {
				t.Fatal(err)
			}
			if err := f.Save(); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(p)
			if string(got) != tt.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			again, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			if p, _ := again.Profile(tt.profile); p.Get(tt.key) != tt.value {
				t.Fatalf("read back %q", p.Get(tt.key))
			}
		})
	}
}

func TestUnsetRemovesOnlyThatLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(p, []byte("[profile.default]\n# keep me\noutput = \"json\"\nsecrets = \"file\"\n"), 0o600)
	f, _ := Load(p)
	if err := f.Unset("default", "output"); err != nil {
		t.Fatal(err)
	}
	f.Save()
	got, _ := os.ReadFile(p)
	if string(got) != "[profile.default]\n# keep me\nsecrets = \"file\"\n" {
		t.Fatalf("got %q", got)
	}
}

func TestBadInputIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.toml")
	f, _ := Load(p)
	for _, tc := range []struct{ key, value string }{{"colour", "x"}, {"output", "yaml"}, {"secrets", "vault"}, {"default_stack", "Dev"}} {
		if err := f.Set("default", tc.key, tc.value); !errs.Is(err, errs.Usage) {
			t.Errorf("Set(%s=%s) = %v, want usage", tc.key, tc.value, err)
		}
	}
	os.WriteFile(p, []byte("[profile.default\nbroken"), 0o600)
	if _, err := Load(p); !errs.Is(err, errs.ConfigUnparseable) {
		t.Fatalf("Load of broken file = %v", err)
	}
}

// The issue-27 exploit at the writer: a profile name that closes the
// header and opens [profile.default] stays one quoted name.
func TestProfileNameCannotOpenATable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(p, []byte("[profile.default]\noutput = \"table\"\n"), 0o600)
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	evil := "x]\n[profile.default]\nserver_binary = \"/repo/evil.sh\"\n#"
	if err := f.Set(evil, "output", "json"); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := back.Profile("default"); d.ServerBinary != "" || d.Output != "table" {
		t.Fatalf("the default profile changed: %+v", d)
	}
	if x, ok := back.Profile(evil); !ok || x.Output != "json" {
		t.Fatalf("the quoted profile: %+v %v", x, ok)
	}
	// Editing it again finds the quoted table instead of adding a second one.
	if err := back.Set(evil, "output", "text"); err != nil {
		t.Fatal(err)
	}
	if x, _ := back.Profile(evil); x.Output != "text" {
		t.Fatalf("second edit: %+v", x)
	}
}

// TOML names are exact: a [proFile.x] table or a SERVER_BINARY key is
// not the profile's own, which is what Set edits; read case-blind (the
// TOML library's struct decoding), which of two tables won depended on
// map order, and a value Set wrote was sometimes not the value read.
func TestProfileNamesAndKeysAreExact(t *testing.T) {
	t.Parallel()
	for i := 0; i < 50; i++ { // the old reading was right or wrong by map order
		c := &File{Path: "config.toml"}
		src := "[proFile.x]\nserver_binary = \"/wrong/case/table\"\n\n[profile.x]\nSERVER_BINARY = \"/wrong/case/key\"\noutput = \"json\"\n"
		if err := c.parse(src); err != nil {
			t.Fatal(err)
		}
		if p, ok := c.Profile("x"); !ok || p.ServerBinary != "" || p.Output != "json" {
			t.Fatalf("profile x read %+v from %q", p, src)
		}
		if err := c.Set("x", "server_binary", "/right"); err != nil {
			t.Fatal(err)
		}
		if p, _ := c.Profile("x"); p.ServerBinary != "/right" {
			t.Fatalf("after Set, profile x reads %+v", p)
		}
	}
}

// The editor finds tables by its own scan of the lines; where that and the
// decoder could disagree, the decoder decides. A table named with a TOML
// 1.1 escape after the profile is its own table, not more of the profile
// (the scan once missed its header and set its key); a key the lines
// cannot reach is refused, never reported as unset.
func TestEditsGoWhereTheDecoderReads(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.toml")
	const src = "[profile.default]\noutput = \"json\"\n[\"\\e\"]\nserver_binary = \"keep\"\n"
	os.WriteFile(p, []byte(src), 0o600)
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("default", "server_binary", "/b"); err != nil {
		t.Fatal(err)
	}
	f.Save()
	if got, _ := os.ReadFile(p); string(got) != "[profile.default]\noutput = \"json\"\nserver_binary = \"/b\"\n[\"\\e\"]\nserver_binary = \"keep\"\n" {
		t.Errorf("set: %q", got)
	}

	const dotted = "[profile]\ndefault.output = \"json\"\n"
	os.WriteFile(p, []byte(dotted), 0o600)
	if f, err = Load(p); err != nil {
		t.Fatal(err)
	}
	if pr, _ := f.Profile("default"); pr.Output != "json" {
		t.Fatalf("dotted profile read as %+v", pr)
	}
	if err := f.Unset("default", "output"); !errs.Is(err, errs.ConfigUnparseable) {
		t.Errorf("unset of a dotted key = %v, want config_unparseable", err)
	}
	if pr, _ := f.Profile("default"); pr.Output != "json" || strings.Join(f.lines, "") != dotted {
		t.Errorf("a refused unset changed the file: %+v %q", pr, f.lines)
	}
}
