package docs_test

import (
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"loams.dev/cli/docs"
	"loams.dev/cli/docsindex"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/stack"
)

// envReads finds the variables a snippet's code reads, in each language's idiom.
var envReads = []*regexp.Regexp{
	regexp.MustCompile(`os\.environ\["([A-Z0-9_]+)"\]`),
	regexp.MustCompile(`os\.(?:getenv|environ\.get)\("([A-Z0-9_]+)"`),
	regexp.MustCompile(`process\.env\.([A-Z0-9_]+)`),
	regexp.MustCompile(`os\.Getenv\("([A-Z0-9_]+)"\)`),
	regexp.MustCompile(`\$\{?([A-Z][A-Z0-9_]+)\}?`),
}

var forbidden = regexp.MustCompile(`(?i)(https?|grpc|postgres)://|loams_[a-z0-9]{12}_`)

// checkSnippet returns the problems of one snippet: literal endpoints or
// keys, and an env line that differs from what the code reads or names a
// variable no engine writes.
func checkSnippet(s docsindex.Snippet, known map[string]bool) []string {
	var problems []string
	code := s.Code
	if m := forbidden.FindString(code); m != "" {
		problems = append(problems, "literal endpoint or key "+m+": read it from the environment")
	}
	read := map[string]bool{}
	for _, re := range envReads {
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			read[m[1]] = true
		}
	}
	delete(read, "PGPASSWORD") // set by the shell snippets, not read from .env.loams
	var got []string
	for v := range read {
		got = append(got, v)
	}
	sort.Strings(got)
	want := slices.Clone(s.Env)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		problems = append(problems, "env line "+strings.Join(want, ",")+" but the code reads "+strings.Join(got, ","))
	}
	for _, v := range s.Env {
		if !known[v] {
			problems = append(problems, v+" is not a variable of the engine registry")
		}
	}
	return problems
}

func registryVars() map[string]bool {
	known := map[string]bool{}
	for _, v := range stack.EnvNames() {
		known[v] = true
	}
	return known
}

// pythonReadsEnvLoams is the standard-library reader every Python snippet
// carries, word for word: python-dotenv is one more package to install, and
// without it os.environ["LOAMS_URL"] was a KeyError (issue 30).
const pythonReadsEnvLoams = `if os.path.exists(".env.loams"):
    with open(".env.loams") as env:
        for name, _, value in (line.strip().partition("=") for line in env):
            if name and not name.startswith("#"):
                os.environ.setdefault(name, value.strip("'\""))
`

func TestSnippets(t *testing.T) {
	t.Parallel()
	snips, err := docsindex.Open(docs.FS, "test").Snippets()
	if err != nil {
		t.Fatal(err)
	}
	known := registryVars()
	have := map[string]bool{}
	for _, s := range snips {
		have[s.Engine+"/"+s.Language+"/"+s.Task] = true
		if s.Language == "javascript" && !strings.Contains(s.Code, `process.loadEnvFile(".env.loams")`) {
			t.Errorf("%s: a JavaScript snippet reads .env.loams itself, so `node index.mjs` runs as pasted", s.Path)
		}
		if s.Language == "python" && !strings.Contains(s.Code, pythonReadsEnvLoams) {
			t.Errorf("%s: a Python snippet reads .env.loams itself with the standard library (issue 30), so `python3 app.py` runs as pasted:\n%s", s.Path, pythonReadsEnvLoams)
		}
		for _, p := range checkSnippet(s, known) {
			t.Errorf("%s: %s", s.Path, p)
		}
		if s.Doc == "" {
			t.Errorf("%s: no doc: line", s.Path)
		} else if _, err := fs.Stat(docs.FS, s.Doc); err != nil {
			t.Errorf("%s: doc %s does not exist", s.Path, s.Doc)
		}
	}
	// Issue 21: a plain Node ESM snippet beside every TypeScript one.
	for k := range have {
		if strings.Contains(k, "/typescript/") && !have[strings.Replace(k, "/typescript/", "/javascript/", 1)] {
			t.Errorf("%s has no JavaScript twin", k)
		}
	}
	for _, e := range []string{"native", "qdrant", "es", "pg"} {
		for _, l := range []string{"python", "typescript", "javascript", "shell", "go"} {
			for _, task := range []string{"connect", "upsert", "search"} {
				if !have[e+"/"+l+"/"+task] {
					t.Errorf("missing snippet %s/%s/%s", e, l, task)
				}
			}
		}
	}
}

// The checks must catch what they are for.
func TestSnippetCheckCatchesMistakes(t *testing.T) {
	t.Parallel()
	known := registryVars()
	for _, tc := range []struct {
		name string
		s    docsindex.Snippet
	}{
		{"literal URL", docsindex.Snippet{Code: `u = "http://127.0.0.1:6333"`, Env: []string{}}},
		{"literal key", docsindex.Snippet{Code: `k = "loams_abcdefghijkl_x"`, Env: []string{}}},
		{"env line misses a variable", docsindex.Snippet{Code: `os.environ["QDRANT_URL"]; os.environ["LOAMS_API_KEY"]`, Env: []string{"QDRANT_URL"}}},
		{"unknown variable", docsindex.Snippet{Code: `process.env.DATABASE_URL`, Env: []string{"DATABASE_URL"}}},
	} {
		if len(checkSnippet(tc.s, known)) == 0 {
			t.Errorf("%s: not caught", tc.name)
		}
	}
	if p := checkSnippet(docsindex.Snippet{Code: `os.Getenv("QDRANT_GRPC_URL")`, Env: []string{"QDRANT_GRPC_URL"}}, known); len(p) != 0 {
		t.Errorf("a correct snippet was refused: %v", p)
	}
}

// Every error code has a section in the errors guide saying what to do.
func TestErrorGuideCoversEveryCode(t *testing.T) {
	t.Parallel()
	guide, err := fs.ReadFile(docs.FS, "guides/output-and-errors.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range errs.Codes() {
		if !strings.Contains(string(guide), "\n### "+string(c)+"\n") {
			t.Errorf("guides/output-and-errors.md has no section for %s", c)
		}
	}
}

// A newcomer's questions put the right section first.
func TestNewcomerQueries(t *testing.T) {
	t.Parallel()
	b := docsindex.Embedded("test")
	for _, tc := range []struct{ query, wantURL string }{
		{"qdrant port", "guides/engines/qdrant#qdrant-port-and-variables"},
		{"LOAMS_API_KEY", "guides/env-and-secrets"},
		{"port already in use", "guides/stacks#port-already-in-use"},
		{"server binary not found", "guides/stacks#server-binary-not-found"},
		// A flag: the sections that document it, not any page that uses it.
		{"--wait-timeout", "guides/reference/cli#loams-stack-start|guides/reference/cli#loams-stack-create|guides/reference/cli#loams-stack-restart|guides/stacks#start-timed-out|guides/stacks#start-stop-restart|guides/output-and-errors#timeout"},
		{"claude code", "guides/mcp/claude-code"},
	} {
		res, err := b.Search(tc.query, 5, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || !slices.ContainsFunc(strings.Split(tc.wantURL, "|"), func(w string) bool { return strings.Contains(res.Results[0].URL, w) }) {
			var got []string
			for _, r := range res.Results {
				got = append(got, r.URL)
			}
			t.Errorf("%q: want %s first, got %v", tc.query, tc.wantURL, got)
		}
	}
}
