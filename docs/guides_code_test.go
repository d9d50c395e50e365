package docs_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"loams.dev/cli/docs"
)

// fence finds a guide's fenced code blocks with their language.
var fence = regexp.MustCompile("(?ms)^```([a-z]*)\n(.*?)^```")

// guideBlock is one fenced block of a guide.
type guideBlock struct{ path, lang, code string }

func guideBlocks(t *testing.T) []guideBlock {
	t.Helper()
	var out []guideBlock
	err := fs.WalkDir(docs.FS, "guides", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		b, err := fs.ReadFile(docs.FS, path)
		if err != nil {
			return err
		}
		for _, m := range fence.FindAllStringSubmatch(string(b), -1) {
			out = append(out, guideBlock{path, m[1], m[2]})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A guide's example is pasted as is, like a snippet: one that reads the
// stack's variables loads .env.loams itself, with the same lines the
// snippets carry, or it fails with KeyError / undefined (issue 30).
func TestGuideExamplesLoadEnvLoams(t *testing.T) {
	var python, js int
	for _, b := range guideBlocks(t) {
		switch b.lang {
		case "python", "py":
			if !strings.Contains(b.code, "os.environ") {
				continue
			}
			python++
			if !strings.Contains(b.code, pythonReadsEnvLoams) {
				t.Errorf("%s: a Python example that reads os.environ loads .env.loams first with the snippets' lines:\n%s", b.path, pythonReadsEnvLoams)
			}
		case "js", "javascript", "mjs", "ts", "typescript":
			if !strings.Contains(b.code, "process.env") {
				continue
			}
			js++
			if !strings.Contains(b.code, `process.loadEnvFile(".env.loams")`) {
				t.Errorf("%s: a JavaScript example that reads process.env loads .env.loams first (process.loadEnvFile), as the snippets do", b.path)
			}
		}
	}
	if python == 0 {
		t.Fatal("no Python example in the guides reads os.environ; the check would pass on nothing")
	}
	t.Logf("%d Python and %d JavaScript examples read the environment", python, js)
}

// The guides' Python examples compile, like the snippets (py_compile).
func TestGuidePythonCompiles(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	n := 0
	for _, b := range guideBlocks(t) {
		if b.lang != "python" {
			continue
		}
		n++
		file := filepath.Join(dir, fmt.Sprintf("%s_%d.py", strings.NewReplacer("/", "_", ".md", "").Replace(b.path), n))
		if err := os.WriteFile(file, []byte(b.code), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(py, "-m", "py_compile", file).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", b.path, err, out)
		}
	}
	if n == 0 {
		t.Fatal("no Python example found in the guides")
	}
}
