// Package config reads and edits $LOAMS_HOME/config.toml. Edits are made on
// the file's lines, so comments, key order and keys this version does not
// know survive every `loams configure` call.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/safefile"
	"loams.dev/cli/internal/tomlkey"
	"loams.dev/cli/secret"
)

// DefaultProfile is used when neither --profile nor LOAMS_PROFILE is set.
const DefaultProfile = "default"

// Keys are the settings `configure` accepts, with their validators.
var Keys = map[string]func(string) error{
	"default_stack": func(v string) error {
		if v != "" && !StackName().MatchString(v) {
			return fmt.Errorf("stack names match %s", StackName())
		}
		return nil
	},
	"output":        oneOf("table", "json", "text"),
	"server_binary": func(string) error { return nil },
	"secrets":       oneOf("auto", "keyring", "file"),
	"endpoint":      validEndpoint,
	"namespace":     validNamespace,
	"ca_cert":       func(string) error { return nil }, // checked when read: the file may come later
	"update_check":  oneOf("true", "false"),            // false: no update notice
}

// StackName is the shape of a stack name.
var StackName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9-]{0,30}$`) })

// ProfileName is the shape of a profile name a project's loams.toml may
// give: the pattern a profile key is filed under (secret.ProfileName), so
// a name loams.toml may choose is always one a key can be stored for.
var ProfileName = secret.ProfileName

// KeyNames lists Keys sorted.
func KeyNames() []string {
	out := make([]string, 0, len(Keys))
	for k := range Keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func oneOf(vals ...string) func(string) error {
	return func(v string) error {
		for _, ok := range vals {
			if v == ok {
				return nil
			}
		}
		return fmt.Errorf("one of %s", strings.Join(vals, ", "))
	}
}

// Profile is one [profile.NAME] table. Missing keys are empty.
type Profile struct {
	Name         string
	DefaultStack string `toml:"default_stack"`
	Output       string `toml:"output"`
	ServerBinary string `toml:"server_binary"`
	Secrets      string `toml:"secrets"`
	// Endpoint, Namespace, CACert and Endpoints name a remote Loams
	// deployment (endpoints.md); see endpoint_keys.go.
	Endpoint  string            `toml:"endpoint"`
	Namespace string            `toml:"namespace"`
	CACert    string            `toml:"ca_cert"`
	Endpoints map[string]string `toml:"endpoints"`
	// UpdateCheck "false" turns the once-a-day update notice off.
	UpdateCheck string `toml:"update_check"`
}

// fields is each TOML key of a profile and the field it fills: the one
// table decodeProfiles reads by and Get answers from.
func (p *Profile) fields() map[string]any {
	return map[string]any{"default_stack": &p.DefaultStack, "output": &p.Output, "server_binary": &p.ServerBinary,
		"secrets": &p.Secrets, "endpoint": &p.Endpoint, "namespace": &p.Namespace, "ca_cert": &p.CACert,
		"endpoints": &p.Endpoints, "update_check": &p.UpdateCheck}
}

// Get returns the value of a known key.
func (p Profile) Get(key string) string {
	if s, ok := p.fields()[key].(*string); ok {
		return *s
	}
	return ""
}

// File is config.toml as read from disk.
type File struct {
	Path     string
	lines    []string
	profiles map[string]Profile
	exists   bool
}

// Load reads path; a missing file is an empty config.
func Load(path string) (*File, error) {
	f := &File{Path: path, profiles: map[string]Profile{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	f.exists = true
	if err := f.parse(string(b)); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *File) parse(src string) error {
	if _, err := tomlkey.Scan([]byte(src), tomlkey.MaxDepth); err != nil {
		return errs.New(errs.ConfigUnparseable, "fix the file by hand; loams will not rewrite a file it cannot parse",
			"%s: %v", f.Path, err).With("path", f.Path)
	}
	profiles, err := decodeProfiles(src)
	if err != nil {
		return errs.New(errs.ConfigUnparseable, "fix the file by hand; loams will not rewrite a file it cannot parse",
			"%s does not parse: %v", f.Path, err).With("path", f.Path)
	}
	f.profiles = profiles
	f.lines = strings.SplitAfter(src, "\n")
	if n := len(f.lines); n > 0 && f.lines[n-1] == "" {
		f.lines = f.lines[:n-1]
	}
	return nil
}

// decodeProfiles reads the [profile.NAME] tables by their exact names, as
// TOML spells them and as the editor (table, keyLine) finds them. Decoded
// into a struct, the TOML library matches names regardless of case, so a
// [proFile.x] or a SERVER_BINARY key was read as the profile's own while
// Set, which edits by exact name, wrote a second table the reader then
// ignored: the value set was not the value read.
func decodeProfiles(src string) (map[string]Profile, error) {
	var top map[string]toml.Primitive
	md, err := toml.Decode(src, &top)
	if err != nil {
		return nil, err
	}
	var tables map[string]map[string]toml.Primitive
	if prim, ok := top["profile"]; ok {
		if err := md.PrimitiveDecode(prim, &tables); err != nil {
			return nil, fmt.Errorf("profile: %w", err)
		}
	}
	out := make(map[string]Profile, len(tables))
	for name, keys := range tables {
		p := Profile{Name: name}
		fields := p.fields()
		for k, v := range keys {
			if dst, ok := fields[k]; ok {
				if err := md.PrimitiveDecode(v, dst); err != nil {
					return nil, fmt.Errorf("profile.%s.%s: %w", tomlkey.Key(name), k, err)
				}
			}
		}
		out[name] = p
	}
	return out, nil
}

// Profile returns the named profile and whether the file has it.
func (f *File) Profile(name string) (Profile, bool) {
	p, ok := f.profiles[name]
	p.Name = name
	return p, ok
}

// ProfileNames lists the profiles, sorted.
func (f *File) ProfileNames() []string {
	out := make([]string, 0, len(f.profiles))
	for n := range f.profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Set writes key = value into [profile.NAME], creating the table if needed.
func (f *File) Set(profile, key, value string) (err error) {
	if err := checkKey(key, value); err != nil {
		return err
	}
	line := tomlkey.Key(key) + " = " + tomlkey.String(value)
	defer f.checkEdit(&err, slices.Clone(f.lines), profile, key, value)
	start, end := f.table(profile)
	if start < 0 {
		if n := len(f.lines); n > 0 {
			if !strings.HasSuffix(f.lines[n-1], "\n") {
				f.lines[n-1] += "\n"
			}
			f.lines = append(f.lines, "\n")
		}
		f.lines = append(f.lines, tomlkey.Table("profile", profile)+"\n", line+"\n")
		return f.reparse()
	}
	if i := f.keyLine(start, end, key); i >= 0 {
		f.lines[i] = keepComment(f.lines[i], line)
		return f.reparse()
	}
	at := start + 1
	for i := start + 1; i < end; i++ {
		if t := strings.TrimSpace(f.lines[i]); t != "" && !strings.HasPrefix(t, "#") {
			at = i + 1
		}
	}
	if at > 0 && !strings.HasSuffix(f.lines[at-1], "\n") {
		f.lines[at-1] += "\n"
	}
	f.lines = append(f.lines[:at], append([]string{line + "\n"}, f.lines[at:]...)...)
	return f.reparse()
}

// Unset removes key from [profile.NAME]; an absent key is not an error.
func (f *File) Unset(profile, key string) (err error) {
	if _, ok := Keys[key]; !ok {
		return unknownKey(key)
	}
	defer f.checkEdit(&err, slices.Clone(f.lines), profile, key, nil)
	start, end := f.table(profile)
	if start < 0 {
		return nil
	}
	if i := f.keyLine(start, end, key); i >= 0 {
		f.lines = append(f.lines[:i], f.lines[i+1:]...)
	}
	return f.reparse()
}

// Save writes the file atomically with mode 0600.
func (f *File) Save() error {
	return safefile.Write(f.Path, []byte(strings.Join(f.lines, "")), 0o600)
}

// checkEdit holds an edit of [profile.NAME] key to what the decoder reads:
// the value set (want) or none (want nil), and nothing else changed. The
// editor finds tables and keys by its own scan of the lines; where the
// decoder reads the file otherwise, the edit is undone and refused, never
// written in the wrong place.
func (f *File) checkEdit(err *error, old []string, profile, key string, want any) {
	if *err != nil {
		f.lines = old
		return
	}
	before, after := []byte(strings.Join(old, "")), []byte(strings.Join(f.lines, ""))
	same, got, decodeErr := tomlkey.SameBut(before, after, "profile", profile, key)
	if decodeErr == nil && same && got == want {
		return
	}
	f.lines = old
	*err = f.parse(string(before))
	if *err == nil {
		*err = errs.New(errs.ConfigUnparseable, fmt.Sprintf("edit %s by hand: loams edits only [profile.NAME] tables written one key per line", f.Path),
			"%s: profile %q is written in a way loams cannot edit by lines", f.Path, profile).With("path", f.Path)
	}
}

func (f *File) reparse() error {
	return f.parse(strings.Join(f.lines, ""))
}

// table finds the lines of [profile.NAME]: the header index and the index
// after its last line; -1 when absent. Headers are read as TOML reads them
// (quoted names, and not a `[` line inside a multi-line string).
func (f *File) table(profile string) (start, end int) {
	start = -1
	for i, l := range f.scan() {
		if l.Header == nil {
			continue
		}
		if start >= 0 {
			return start, i
		}
		if !l.Array && slices.Equal(l.Header, []string{"profile", profile}) {
			start = i
		}
	}
	return start, len(f.lines)
}

// keyLine is the line in [start, end) that sets key.
func (f *File) keyLine(start, end int, key string) int {
	for i, l := range f.scan()[start+1 : end] {
		if slices.Equal(l.Key, []string{key}) {
			return start + 1 + i
		}
	}
	return -1
}

// scan is f.lines as tomlkey sees them, one entry per line. The file
// parsed (parse refuses it otherwise), so the scan cannot go deeper than
// the bound it already passed.
func (f *File) scan() []tomlkey.Line {
	lines, _ := tomlkey.Scan([]byte(strings.Join(f.lines, "")), tomlkey.MaxDepth)
	return lines
}

// keepComment replaces a key line but keeps its trailing comment and line ending.
func keepComment(old, line string) string {
	eol := old[len(strings.TrimRight(old, "\r\n")):]
	body := strings.TrimRight(old, "\r\n")
	inStr, quote := false, byte(0)
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case inStr && c == '\\' && quote == '"':
			i++
		case inStr && c == quote:
			inStr = false
		case !inStr && (c == '"' || c == '\''):
			inStr, quote = true, c
		case !inStr && c == '#':
			return line + " " + body[i:] + eol
		}
	}
	return line + eol
}

func checkKey(key, value string) error {
	valid, ok := Keys[key]
	if !ok {
		return unknownKey(key)
	}
	if err := valid(value); err != nil {
		if e, ok := err.(*errs.Error); ok {
			return e // a coded refusal (insecure_endpoint) keeps its code
		}
		return errs.New(errs.Usage, fmt.Sprintf("%s must be %v", key, err), "invalid value %q for %s", value, key)
	}
	return nil
}

func unknownKey(key string) error {
	return errs.New(errs.Usage, "known keys: "+strings.Join(KeyNames(), ", "), "unknown configuration key %q", key).With("key", key)
}
