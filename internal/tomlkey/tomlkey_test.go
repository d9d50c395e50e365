package tomlkey

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// What loams writes parses back to the same names and values, and Scan
// sees the header and the key the decoder sees: no name can open a table
// of its own or end the string it is written in.
func FuzzQuote(f *testing.F) {
	f.Add("default", "output", "json")
	f.Add("x]\n[profile.default]\nserver_binary = \"/r/evil.sh\"\n#", "server_binary", "/tmp/a b")
	f.Add(`a"b\c`, "k.e y", "\x00\x1f\x7f'''\"\"\"")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, table, key, value string) {
		if !utf8.ValidString(table) || !utf8.ValidString(key) || !utf8.ValidString(value) {
			return // loams's names and values are Go strings from UTF-8 input
		}
		doc := "# before\n" + Table("profile", table) + "\n" + Key(key) + " = " + String(value) + "\n"
		var got map[string]map[string]map[string]any
		if _, err := toml.Decode(doc, &got); err != nil {
			t.Fatalf("%q does not parse: %v", doc, err)
		}
		want := map[string]map[string]map[string]any{"profile": {table: {key: value}}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q decodes to %#v", doc, got)
		}
		lines, err := Scan([]byte(doc), 32)
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != 3 || !reflect.DeepEqual(lines[1].Header, []string{"profile", table}) || !reflect.DeepEqual(lines[2].Key, []string{key}) {
			t.Fatalf("%q scans as %#v", doc, lines)
		}
		if strings.Join(texts(lines), "") != doc {
			t.Fatalf("lines do not give back the document")
		}
	})
}

func texts(lines []Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// A `[dev]` line inside a multi-line string or an array is content, not a
// table; quoted header keys are read as the decoder reads them.
func TestScanKnowsStringsAndArrays(t *testing.T) {
	doc := "a = \"\"\"\n[dev]\nstack = \"x\"\n\"\"\"\nb = '''\n[dev]'''\nc = [\n[1],\n]\n[ \"dev\" ] # ours\nstack = \"app\"\n[[bin]]\n"
	lines, err := Scan([]byte(doc), 32)
	if err != nil {
		t.Fatal(err)
	}
	var headers [][]string
	var keys []string
	for _, l := range lines {
		if l.Header != nil {
			headers = append(headers, l.Header)
		}
		if l.Key != nil {
			keys = append(keys, strings.Join(l.Key, "."))
		}
	}
	if !reflect.DeepEqual(headers, [][]string{{"dev"}, {"bin"}}) || !reflect.DeepEqual(keys, []string{"a", "b", "c", "stack"}) {
		t.Fatalf("headers %q keys %q", headers, keys)
	}
	if strings.Join(texts(lines), "") != doc {
		t.Fatal("lines do not give back the document")
	}
}

func TestScanRefusesDeepNesting(t *testing.T) {
	for _, doc := range []string{
		"a = " + strings.Repeat("[", 33) + strings.Repeat("]", 33),
		"a = " + strings.Repeat("{b=", 40000),
		"[" + strings.Repeat("a.", 33) + "a]",
	} {
		var de *LimitError
		if _, err := Scan([]byte(doc), 32); !errors.As(err, &de) {
			t.Errorf("%.40q…: %v", doc, err)
		}
	}
	if _, err := Scan([]byte("a = "+strings.Repeat("[", 32)+strings.Repeat("]", 32)), 32); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkScanLongLines: the scan is linear however a 256 KiB file is
// laid out (a line of blanks once took seconds).
func BenchmarkScanLongLines(b *testing.B) {
	docs := map[string][]byte{
		"blanks":    []byte(strings.Repeat(" ", 256<<10)),
		"key blank": []byte("a =" + strings.Repeat(" ", 256<<10) + "1\n"),
		"word":      []byte(strings.Repeat("x", 256<<10)),
		"strings":   []byte("a = \"\"\"" + strings.Repeat("\\\"", 128<<10) + "\"\"\"\n"),
		"lines":     []byte(strings.Repeat("[t]\nk = \"v\" # c\n", 16<<10)),
	}
	for name, doc := range docs {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Scan(doc, MaxDepth)
			}
		})
	}
}

// A byte order mark before the first line is what decoders skip: the
// header or key right after it is seen, as the decoder sees it.
func TestScanSkipsBOM(t *testing.T) {
	lines, err := Scan([]byte("\xef\xbb\xbf[dev]\r\nstack = \"a\"\r\n"), MaxDepth)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(lines[0].Header, []string{"dev"}) || !reflect.DeepEqual(lines[1].Key, []string{"stack"}) {
		t.Errorf("scan: %+v", lines)
	}
	if lines, _ := Scan([]byte("\xef\xbb\xbfstack = 1\n"), MaxDepth); !reflect.DeepEqual(lines[0].Key, []string{"stack"}) {
		t.Errorf("scan: %+v", lines)
	}
}

// Quoted keys are read with TOML's escapes, which are not Go's: \e and \xHH
// (TOML 1.1, which the decoder reads) included. A key the scanner cannot
// read does not make the lines after it look nested: its quotes are still
// a string.
func TestScanReadsTOMLEscapes(t *testing.T) {
	for _, c := range []struct {
		doc           string
		headers, keys []string
	}{
		{"\"[\\e\" = \"\"\n\n[dev]\nstack = \"app\"\n", []string{"dev"}, []string{"[\x1b", "stack"}},
		{"[\"d\\x65v\"]\n\"\\u00e9\\xe9\\U0001F600\" = 1\n", []string{"dev"}, []string{"éé😀"}},
		{"\"\\b\\t\\n\\f\\r\\\"\\\\\" = 1\n", nil, []string{"\b\t\n\f\r\"\\"}},
		// Not TOML (the decoder refuses these), but the scan keeps its footing.
		{"\"[\\q\" = 1\n[dev]\nstack = 2\n", []string{"dev"}, []string{"stack"}},
		{"\"[\\x4\" = 1\n[dev]\n", []string{"dev"}, nil},
		{"\"\\a\" = 1\n", nil, nil},
	} {
		lines, err := Scan([]byte(c.doc), MaxDepth)
		if err != nil {
			t.Fatal(err)
		}
		var headers, keys []string
		for _, l := range lines {
			if l.Header != nil {
				headers = append(headers, strings.Join(l.Header, "."))
			}
			if l.Key != nil {
				keys = append(keys, strings.Join(l.Key, "."))
			}
		}
		if !reflect.DeepEqual(headers, c.headers) || !reflect.DeepEqual(keys, c.keys) {
			t.Errorf("%q: headers %q keys %q, want %q %q", c.doc, headers, keys, c.headers, c.keys)
		}
	}
}
