package secret

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSecretNeverPrints(t *testing.T) {
	t.Parallel()
	s := New("loams_abcdefghijkl_CANARYCANARYCANARYCANARYCANARY12")
	wrapped := struct {
		Key  Secret
		Ptr  *Secret
		Keys []Secret
	}{s, &s, []Secret{s}}
	outputs := map[string]string{
		"String":   s.String(),
		"GoString": s.GoString(),
		"%v":       fmt.Sprintf("%v", s),
		"%s":       fmt.Sprintf("%s", s),
		"%q":       fmt.Sprintf("%q", s),
		"%#v":      fmt.Sprintf("%#v", s),
		"%x":       fmt.Sprintf("%x", s),
		"%+v":      fmt.Sprintf("%+v", s),
		"%d":       fmt.Sprintf("%d", s),
		"Sprint":   fmt.Sprint(s),
		"Println":  fmt.Sprintln(s),
		"struct":   fmt.Sprintf("%+v %#v", wrapped, wrapped),
		"error":    fmt.Errorf("key %v", s).Error(),
	}
	for _, v := range []any{s, wrapped, map[string]Secret{"k": s}} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		outputs[fmt.Sprintf("json %T", v)] = string(b)
	}
	txt, _ := s.MarshalText()
	outputs["MarshalText"] = string(txt)
	for name, got := range outputs {
		if strings.Contains(got, "CANARY") || strings.Contains(got, "abcdefghijkl") {
			t.Errorf("%s leaks the value: %s", name, got)
		}
		if !strings.Contains(got, "redacted") {
			t.Errorf("%s = %q, want it to say %s", name, got, Redacted)
		}
	}
	if s.Reveal() != "loams_abcdefghijkl_CANARYCANARYCANARYCANARYCANARY12" {
		t.Error("Reveal must return the value")
	}
}

func TestGenerateFormat(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^loams_[a-z0-9]{12}_[A-Za-z0-9]{32}$`)
	seen := map[string]bool{}
	for range 50 {
		s, err := Generate()
		if err != nil {
			t.Fatal(err)
		}
		if !re.MatchString(s.Reveal()) {
			t.Fatalf("%q does not match %s", s.Reveal(), re)
		}
		if s.KeyID() != s.Reveal()[6:18] {
			t.Fatalf("KeyID = %q", s.KeyID())
		}
		if seen[s.Reveal()] {
			t.Fatal("Generate repeated a key")
		}
		seen[s.Reveal()] = true
	}
}

// revealCallers are the only product files allowed to call Reveal: the
// dotenv writer (the user asked for the values), and the server's spawn
// environment (LOAMS_API_KEY), and the endpoint client's Authorization
// header (sent only to the endpoint's own origin). The stores live in this package and read the
// field directly. Tests are not product output and may call it.
var revealCallers = map[string]bool{
	"envfile/dotenv.go":   true,
	"stack/supervisor.go": true,
	"endpoint/client.go":  true,
}

func TestRevealOnlyWhereTheUserAsked(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile(`\.Reveal\(\)`)
	var bad []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if revealCallers[rel] {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if call.Match(b) {
			bad = append(bad, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("Secret.Reveal() is called from %v; only %v may reveal a secret (print it redacted, or pass the Secret on)", bad, revealCallers)
	}
}
