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
