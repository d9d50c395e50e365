package envfile

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/secret"
)

const key = "loams_k3f9a0b1c2d3_AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH"

func devStack() Stack {
	return Stack{
		Name: "dev",
		Vars: []Var{
			{"LOAMS_URL", "http://127.0.0.1:8080"},
			{"LOAMS_ENDPOINT", "http://127.0.0.1:8080"},
			{"LOAMS_FLIGHT_SQL_URL", "grpc://127.0.0.1:8082"},
			{"QDRANT_URL", "http://127.0.0.1:6333"},
			{"QDRANT_GRPC_URL", "http://127.0.0.1:6334"},
			{"ELASTICSEARCH_URL", "http://127.0.0.1:9200"},
		},
		Key: secret.New(key),
	}
}

var at = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

// The spec's example file, byte for byte.
const wantDotenv = `# Written by loams 0.1.0 for stack "dev" at 2026-12-02T10:00:00Z. Do not commit.
LOAMS_STACK=dev
LOAMS_URL=http://127.0.0.1:8080
LOAMS_ENDPOINT=http://127.0.0.1:8080
LOAMS_API_KEY=` + key + `
LOAMS_FLIGHT_SQL_URL=grpc://127.0.0.1:8082
QDRANT_URL=http://127.0.0.1:6333
QDRANT_GRPC_URL=http://127.0.0.1:6334
ELASTICSEARCH_URL=http://127.0.0.1:9200
`

func TestDotenvGolden(t *testing.T) {
	t.Parallel()
	if got := string(devStack().Dotenv("0.1.0", at)); got != wantDotenv {
		t.Errorf("got\n%s\nwant\n%s", got, wantDotenv)
	}
	// Only the header line differs between two writes.
	a := devStack().Dotenv("0.1.0", at)
	b := devStack().Dotenv("0.1.0", at.Add(time.Hour))
	_, ra, _ := bytes.Cut(a, []byte("\n"))
	_, rb, _ := bytes.Cut(b, []byte("\n"))
	if !bytes.Equal(ra, rb) || bytes.Equal(a, b) {
		t.Error("two writes must differ only in the timestamp line")
	}
}

func TestShellAndValues(t *testing.T) {
	t.Parallel()
	s := Stack{Name: "dev", Vars: []Var{{"LOAMS_URL", "http://x"}, {"ODD", "it's $HOME"}}, Key: secret.New(key)}
	want := "export LOAMS_STACK='dev'\nexport LOAMS_URL='http://x'\nexport LOAMS_API_KEY='" + key + "'\nexport ODD='it'\\''s $HOME'\n"
	if got := string(s.Shell()); got != want {
		t.Errorf("shell:\n%s\nwant\n%s", got, want)
	}
	v := s.Values()
	if v["LOAMS_API_KEY"] != Redacted || v["LOAMS_URL"] != "http://x" || v["LOAMS_STACK"] != "dev" {
		t.Errorf("Values = %v", v)
	}
	if got := strings.Join(s.Names(), ","); got != "LOAMS_STACK,LOAMS_URL,LOAMS_API_KEY,ODD" {
		t.Errorf("Names = %s", got)
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                 "",
		"plain":            "plain",
		"http://h:1/p?q=1": "'http://h:1/p?q=1'",
		"two words":        "'two words'",
		"a#b":              "'a#b'",
		`say "hi"`:         `'say "hi"'`,
		"$HOME":            "'$HOME'",
		"it's":             `"it's"`,
		"it's $x \\ \"q\"": `"it's \$x \\ \"q\""`,
		"line\nbreak":      `"line\nbreak"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

const block = "# >>> loams (stack dev) >>>\nLOAMS_STACK=dev\nLOAMS_URL=http://127.0.0.1:8080\nLOAMS_API_KEY=" + key + "\n# <<< loams <<<"

func small() Stack {
	return Stack{Name: "dev", Vars: []Var{{"LOAMS_URL", "http://127.0.0.1:8080"}}, Key: secret.New(key)}
}

func TestMergeGolden(t *testing.T) {
	t.Parallel()
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	other := "# >>> loams (stack other) >>>\nLOAMS_STACK=other\n# <<< loams <<<\n"
	tests := []struct{ name, in, want string }{
		{"new file", "", block + "\n"},
		{"append", "# mine\nexport A=1\n", "# mine\nexport A=1\n" + block + "\n"},
		{"append without final newline", "A=1", "A=1\n" + block + "\n"},
		{"replace keeps surroundings", "export A=1\n# >>> loams (stack dev) >>>\nOLD=1\n# <<< loams <<<\n# after\nB='x y'\n",
			"export A=1\n" + block + "\n# after\nB='x y'\n"},
		{"replace at end without final newline", "A=1\n# >>> loams (stack dev) >>>\nOLD=1\n# <<< loams <<<",
			"A=1\n" + block},
		{"crlf append", crlf("A=1\n"), crlf("A=1\n" + block + "\n")},
		{"crlf replace", crlf("A=1\n# >>> loams (stack dev) >>>\nOLD=1\n# <<< loams <<<\nB=2"), crlf("A=1\n" + block + "\nB=2")},
		{"other stack's block kept", other + "A=1\n", other + "A=1\n" + block + "\n"},
	}
	for _, tt := range tests {
		got, err := Merge([]byte(tt.in), small(), ".env")
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.name, got, tt.want)
		}
		// Merging again changes nothing.
		again, err := Merge(got, small(), ".env")
		if err != nil || !bytes.Equal(again, got) {
			t.Errorf("%s: a second merge changed the file: %q (%v)", tt.name, again, err)
		}
	}
}

func TestMergeConflicts(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"two blocks":         "# >>> loams (stack dev) >>>\n# <<< loams <<<\n# >>> loams (stack dev) >>>\n# <<< loams <<<\n",
		"unterminated":       "A=1\n# >>> loams (stack dev) >>>\nLOAMS_STACK=dev\n",
		"other unterminated": "# >>> loams (stack other) >>>\nA=1\n",
		"nested":             "# >>> loams (stack other) >>>\n# >>> loams (stack dev) >>>\n# <<< loams <<<\n",
		"stray end":          "A=1\n# <<< loams <<<\n",
	} {
		if _, err := Merge([]byte(in), small(), ".env"); !errs.Is(err, errs.FileConflict) {
			t.Errorf("%s: err = %v, want file_conflict", name, err)
		}
	}
}

func TestExportFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := filepath.Join(dir, ".env")
	orig := "# keep me\r\nexport A=1\r\n"
	if err := os.WriteFile(env, []byte(orig), 0o640); err != nil {
		t.Fatal(err)
	}
	tgt := Target{Write: filepath.Join(dir, ".env.loams"), Merge: env, Version: "0.1.0", Now: at}
	res, err := Export(context.Background(), devStack(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != tgt.Write || res.MergedInto != env || len(res.Written) != 8 || len(res.Tightened) != 1 {
		t.Errorf("result = %+v", res)
	}
	got, _ := os.ReadFile(tgt.Write)
	if string(got) != wantDotenv {
		t.Errorf(".env.loams = %q", got)
	}
	// Both hold the key: both end 0600 (the .env was 0640).
	for path, want := range map[string]os.FileMode{tgt.Write: 0o600, env: 0o600} {
		fi, _ := os.Stat(path)
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode %o, want %o", path, fi.Mode().Perm(), want)
		}
	}
	merged, _ := os.ReadFile(env)
	if !strings.HasPrefix(string(merged), orig) || !strings.Contains(string(merged), "\r\nLOAMS_API_KEY="+key+"\r\n") {
		t.Errorf("merged .env = %q", merged)
	}

	// A new merge target is 0600.
	fresh := filepath.Join(dir, ".env.local")
	if _, err := Export(context.Background(), devStack(), Target{Merge: fresh}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o600 {
		t.Errorf("new merge file mode %o, want 600", fi.Mode().Perm())
	}

	// A conflict touches neither file.
	bad := "# >>> loams (stack dev) >>>\nA=1\n"
	os.WriteFile(env, []byte(bad), 0o640)
	os.Remove(tgt.Write)
	if _, err := Export(context.Background(), devStack(), tgt); !errs.Is(err, errs.FileConflict) {
		t.Fatalf("err = %v, want file_conflict", err)
	}
	if b, _ := os.ReadFile(env); string(b) != bad {
		t.Error("conflicting file was changed")
	}
	if _, err := os.Stat(tgt.Write); err == nil {
		t.Error(".env.loams was written despite the conflict")
	}
}

// Writing the same settings again keeps the file (its header time and
// mtime): dev servers that watch .env files must not reload for nothing.
// A different value, or a mode other than 0600, rewrites it.
func TestExportKeepsAnUnchangedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tgt := Target{Write: filepath.Join(dir, ".env.loams"), Version: "0.1.0", Now: at}
	if _, err := Export(context.Background(), devStack(), tgt); err != nil {
		t.Fatal(err)
	}
	later := tgt
	later.Now = at.Add(time.Hour)
	res, err := Export(context.Background(), devStack(), later)
	if err != nil || !res.Unchanged {
		t.Fatalf("second export: %+v, %v; want Unchanged", res, err)
	}
	if got, _ := os.ReadFile(tgt.Write); string(got) != wantDotenv {
		t.Errorf("an unchanged export rewrote the file:\n%s", got)
	}

	os.Chmod(tgt.Write, 0o644)
	if res, _ := Export(context.Background(), devStack(), later); res.Unchanged {
		t.Error("a 0644 file was kept; it must be rewritten 0600")
	}
	other := devStack()
	other.Vars[0].Value = "http://127.0.0.1:20080"
	res, err = Export(context.Background(), other, later)
	got, _ := os.ReadFile(tgt.Write)
	if err != nil || res.Unchanged || !strings.Contains(string(got), "LOAMS_URL=http://127.0.0.1:20080\n") || !strings.Contains(string(got), "T11:00:00Z") {
		t.Errorf("changed settings: %+v, %v, file:\n%s", res, err, got)
	}
}
