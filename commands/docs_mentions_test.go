package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsNameRealCommandsAndFlags holds the README and the guides to the
// command tree too: every `loams …` in backticks or at the start of a code
// block line names a real command and flags it has (the reference is
// generated, so it is skipped).
func TestDocsNameRealCommandsAndFlags(t *testing.T) {
	m := newMentionChecker()
	files := []string{"../README.md"}
	err := filepath.WalkDir("../docs/guides", func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, filepath.Join("reference", "cli.md")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) < 5 {
		t.Fatalf("guides: %v (%d files)", err, len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inCode := false
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inCode = !inCode
				continue
			}
			text := line
			if inCode {
				cmd := strings.TrimPrefix(strings.TrimSpace(line), "$ ")
				if !strings.HasPrefix(cmd, "loams ") {
					continue
				}
				text = "`" + cmd + "`"
			}
			for _, p := range m.check(text, nil) {
				if !strings.Contains(p, "is not a flag of") { // bare flags in prose may be the server's
					t.Errorf("%s:%d: %s", f, i+1, p)
				}
			}
		}
	}
}
