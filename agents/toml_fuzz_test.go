package agents

import (
	"bytes"
	"os"
	"testing"
)

// Codex's file: adding our table and removing it again gives back the
// bytes of any TOML document that ends in a newline; an existing table of
// ours keeps every key but command and args.
func FuzzTOMLRoundTrip(f *testing.F) {
	for _, s := range []string{"testdata/codex-user/foreign.in", "testdata/codex-user/userkeys.in", "testdata/codex-user/multiline.in", "testdata/codex-user/multiline-ours.in"} {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("model = \"o3\"\r\n\r\n[history]\r\npersistence = \"none\"\r\n"))
	entry := Object{{"command", "/opt/loams/bin/loams"}, {"args", []string{"mcp", "serve"}}}
	owned := []string{"command", "args"}
	loc := Location{Format: FormatTOML, Container: []string{"mcp_servers"}}
	f.Fuzz(func(t *testing.T, doc []byte) {
		servers, err := loc.decode(doc)
		if err != nil {
			return
		}
		out, err := loc.upsert(doc, "loams", entry, owned)
		if err != nil {
			return // refused (inline table, …): nothing written
		}
		if err := loc.verify(doc, out, []Entry{{Name: "loams", Command: []string{"/opt/loams/bin/loams", "mcp", "serve"}}}); err != nil {
			t.Fatalf("verify: %v\n%q\n%q", err, doc, out)
		}
		// The round trip holds for files whose last line has content (the
		// usual case): removal also takes the blank line install put before
		// our table, and cannot tell it from a blank line of the user's.
		lines := tomlLines(doc)
		if servers["loams"] != nil || len(lines) == 0 || !bytes.HasSuffix(doc, []byte("\n")) || len(bytes.TrimSpace([]byte(lines[len(lines)-1]))) == 0 {
			return
		}
		back, err := loc.remove(out, "loams")
		if err != nil {
			t.Fatalf("remove: %v\n%q", err, out)
		}
		if !bytes.Equal(back, doc) {
			t.Fatalf("round trip changed the document:\n%q\n%q\n%q", doc, out, back)
		}
	})
}
