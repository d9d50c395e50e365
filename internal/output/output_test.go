package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var view = View{
	JSON:   map[string]any{"stacks": []map[string]string{{"name": "dev", "state": "running"}}},
	Header: []string{"name", "state", "url"},
	Rows:   [][]string{{"dev", "running", "http://127.0.0.1:8080"}, {"scratch-two", "crashed", ""}},
}

func TestPrintFormats(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		color  bool
		want   string
	}{
		{"piped table is plain", Table, false,
			"NAME         STATE    URL\ndev          running  http://127.0.0.1:8080\nscratch-two  crashed\n"},
		{"text is TSV without header", Text, false,
			"dev\trunning\thttp://127.0.0.1:8080\nscratch-two\tcrashed\t\n"},
		{"json is one document", JSON, false,
			"{\n  \"stacks\": [\n    {\n      \"name\": \"dev\",\n      \"state\": \"running\"\n    }\n  ]\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := NewPrinter(tt.format, &b, tt.color).Print(view); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Fatalf("got:\n%q\nwant:\n%q", b.String(), tt.want)
			}
		})
	}
}

func TestTerminalTableColoursStatesOnly(t *testing.T) {
	var b bytes.Buffer
	NewPrinter(Table, &b, true).Print(view)
	out := b.String()
	if !strings.Contains(out, "\x1b[") {
		t.Fatalf("no styling on a terminal: %q", out)
	}
	plain := stripANSI(out)
	if !strings.Contains(plain, "dev          running  http://127.0.0.1:8080") {
		t.Fatalf("columns misaligned once styled: %q", plain)
	}
	if strings.Contains(out, "\x1b[1m"+"http") {
		t.Fatal("a plain cell was styled")
	}
}

func TestKeyValueBlockAndEmpty(t *testing.T) {
	var b bytes.Buffer
	NewPrinter(Table, &b, false).Print(View{Rows: [][]string{{"name", "dev"}, {"data_dir", "/x"}}})
	if got := b.String(); got != "name:     dev\ndata_dir: /x\n" {
		t.Fatalf("got %q", got)
	}
	b.Reset()
	NewPrinter(Table, &b, false).Print(View{Header: []string{"name"}, Empty: "no stacks yet"})
	if got := b.String(); got != "no stacks yet\n" {
		t.Fatalf("got %q", got)
	}
	b.Reset()
	NewPrinter(Text, &b, false).Print(View{Rows: [][]string{{"a\tb", "line\nbreak"}}})
	if got := b.String(); got != "a b\tline break\n" {
		t.Fatalf("TSV cells must not break records: %q", got)
	}
}

func TestRawIsVerbatimButJSONWins(t *testing.T) {
	v := View{JSON: map[string]int{"n": 1}, Raw: "export A='1'\n"}
	var b bytes.Buffer
	NewPrinter(Text, &b, false).Print(v)
	if b.String() != v.Raw {
		t.Fatalf("got %q", b.String())
	}
	b.Reset()
	NewPrinter(JSON, &b, false).Print(v)
	var m map[string]int
	if err := json.Unmarshal(b.Bytes(), &m); err != nil || m["n"] != 1 {
		t.Fatalf("json mode printed %q", b.String())
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"table", "json", "text"} {
		if _, err := ParseFormat(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, err := ParseFormat("yaml"); err == nil {
		t.Error("yaml accepted")
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// In text mode TextRows win over Rows and Raw: the machine record, not the
// table's cells or the sentence.
func TestTextRowsInTextMode(t *testing.T) {
	v := View{Rows: [][]string{{"started", "2026-12-03 12:00:00Z"}}, Raw: "loams 1.0 (abc)\n",
		TextRows: [][]string{{"started_at", "2026-12-03T12:00:00Z"}}}
	var b strings.Builder
	if err := NewPrinter(Text, &b, false).Print(v); err != nil || b.String() != "started_at\t2026-12-03T12:00:00Z\n" {
		t.Fatalf("text: %q %v", b.String(), err)
	}
	b.Reset()
	if err := NewPrinter(Table, &b, false).Print(v); err != nil || b.String() != "loams 1.0 (abc)\n" {
		t.Fatalf("table: %q %v", b.String(), err)
	}
}

// Issues 21 and 28: a table wider than the terminal wraps every prose
// column to the width (the widest first: a long fix is not left whole
// while the message is squeezed), breaking only at spaces and after path
// separators; columns without spaces stay whole.
func TestTableFitsTheWidth(t *testing.T) {
	msg := "the Loams server binary was not found on PATH, in LOAMS_SERVER_BINARY or in the config; install it or point loams at it"
	fix := "chmod 700 /home/someone/.loams/stacks/nodeapp-with-a-long-name/secrets, then run `loams doctor` again to see the rest"
	v := View{Header: []string{"status", "check", "message", "fix"}, Rows: [][]string{
		{"fail", "server", msg, fix},
		{"ok", "home", "LOAMS_HOME is writable", ""},
	}}
	for _, width := range []int{72, 80, 100, 150} {
		var b bytes.Buffer
		if err := NewPrinter(Table, &b, false).WithWidth(width).Print(v); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		for _, l := range lines {
			if len(l) > width {
				t.Errorf("width %d: line of %d: %q", width, len(l), l)
			}
		}
		from, to := strings.Index(lines[0], "MESSAGE"), strings.Index(lines[0], "FIX")
		for _, col := range []struct {
			text     string
			from, to int
		}{{msg, from, to}, {fix, to, 1 << 20}} {
			var got []string
			for _, l := range lines[1:] {
				if len(l) > col.from {
					got = append(got, strings.TrimSpace(l[col.from:min(col.to, len(l))]))
				}
			}
			joined := strings.Join(got, " ")
			// Every word is there, in order, and none was cut: a line ends
			// at a space or after a '/'.
			if strings.ReplaceAll(joined, " ", "") != strings.ReplaceAll(col.text+"LOAMS_HOMEiswritable", " ", "") &&
				strings.ReplaceAll(joined, " ", "") != strings.ReplaceAll(col.text, " ", "") {
				t.Errorf("width %d: %q lost words:\n%s", width, col.text[:20], out)
			}
			for _, piece := range got {
				if piece != "" && !strings.Contains(col.text+" LOAMS_HOME is writable", piece) {
					t.Errorf("width %d: %q is not a run of whole words", width, piece)
				}
				if piece != "" && !strings.HasSuffix(piece, "/") {
					if k := strings.Index(col.text, piece); k >= 0 && k+len(piece) < len(col.text) && col.text[k+len(piece)] != ' ' {
						t.Errorf("width %d: cut mid-word after %q:\n%s", width, piece, out)
					}
				}
			}
		}
	}
	// No width (a pipe): one line a row, as wide as it takes.
	var b bytes.Buffer
	NewPrinter(Table, &b, false).Print(v)
	if n := strings.Count(b.String(), "\n"); n != 3 {
		t.Errorf("unlimited width wrapped: %d lines\n%s", n, b.String())
	}
	// Wrap makes a column without spaces wrappable too (at '/').
	b.Reset()
	long := "/home/someone/src/a-project-with-a-long-name/node_modules/.bin/loams"
	NewPrinter(Table, &b, false).WithWidth(40).Print(View{Header: []string{"name", "path"}, Rows: [][]string{{"loams", long}}, Wrap: "path"})
	if out := b.String(); strings.Contains(out, long) || !strings.Contains(out, "node_modules/") {
		t.Errorf("Wrap=path:\n%s", out)
	}
}

// Issue 22: JSON output is not HTML-escaped ("<redacted>", "a && b").
func TestWriteJSONNoHTMLEscaping(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := WriteJSON(&b, map[string]string{"v": "<redacted> & more"}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"v\": \"<redacted> & more\"\n}\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
