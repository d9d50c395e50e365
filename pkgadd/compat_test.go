package pkgadd

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Issue 21: the compatibility clients the snippets use are logical
// packages, pinned to the major version the snippets are checked against
// (scripts/check-snippets), whatever the CLI's own version.
func TestCompatibilityClientsArePinnedToTheCheckedMajor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		files   []string
		lang    string
		pkg     string
		version string
		want    []string
	}{
		{[]string{"package.json"}, "", "qdrant", "0.1.0", []string{"npm", "install", "@qdrant/js-client-rest@^1.19.0"}},
		{[]string{"package.json"}, "", "elasticsearch", "dev", []string{"npm", "install", "@elastic/elasticsearch@^8.19.2"}},
		{[]string{"package.json", "pnpm-lock.yaml"}, "", "postgres", "0.1.0", []string{"pnpm", "add", "pg@^8.23.1"}},
		{[]string{"package.json"}, "", "@qdrant/js-client-rest", "0.1.0", []string{"npm", "install", "@qdrant/js-client-rest@^1.19.0"}},
		{[]string{"pyproject.toml", "uv.lock"}, "", "qdrant", "0.1.0", []string{"uv", "add", "qdrant-client>=1.15,<2"}},
		{[]string{"pyproject.toml", "poetry.lock"}, "", "elasticsearch", "0.1.0", []string{"poetry", "add", "elasticsearch>=8.19,<9"}},
		{[]string{"pyproject.toml", "uv.lock"}, "", "postgres", "0.1.0", []string{"uv", "add", "psycopg[binary]>=3.1,<4"}},
		{[]string{"pyproject.toml", "uv.lock"}, "", "flight", "0.1.0", []string{"uv", "add", "adbc-driver-flightsql>=1.0,<2"}},
		{[]string{"go.mod"}, "", "qdrant", "0.1.0", []string{"go", "get", "github.com/qdrant/go-client@v1"}},
		{[]string{"go.mod"}, "", "elasticsearch", "0.1.0", []string{"go", "get", "github.com/elastic/go-elasticsearch/v8@v8"}},
		{[]string{"go.mod"}, "", "postgres", "dev", []string{"go", "get", "github.com/jackc/pgx/v5@v5"}},
		{[]string{"go.mod"}, "", "flight", "0.1.0", []string{"go", "get", "github.com/apache/arrow-go/v18@v18"}},
		{nil, "javascript", "qdrant", "0.1.0", []string{"npm", "install", "@qdrant/js-client-rest@^1.19.0"}},
	}
	for _, c := range cases {
		res, err := Add(context.Background(), Request{Packages: []string{c.pkg}, Language: c.lang, DryRun: true,
			ProjectDir: project(t, c.files...), Version: c.version, Getenv: env("")})
		if err != nil {
			t.Errorf("%v %s: %v", c.files, c.pkg, err)
			continue
		}
		if !reflect.DeepEqual(res.Command, c.want) || !res.Pinned {
			t.Errorf("%v %s %s: got %q pinned=%v, want %q", c.files, c.pkg, c.version, res.Command, res.Pinned, c.want)
		}
		if c.version == "dev" && strings.Contains(strings.Join(res.Notes, " "), "development build") {
			t.Errorf("%s on a dev build: a compatibility client is pinned all the same, got notes %q", c.pkg, res.Notes)
		}
	}
}

// Every compatibility pin names the version the snippet check installs,
// so the two cannot drift apart silently.
func TestCompatPinsMatchTheSnippetCheck(t *testing.T) {
	t.Parallel()
	script := readRepoFile(t, "scripts/check-snippets")
	for logical, names := range Allowed() {
		for reg, e := range names {
			if !e.Compat() || reg == PyPI { // PyPI is not reachable here: the Python snippets are only compiled
				continue
			}
			var want string
			switch reg {
			case NPM:
				want = e.Name + "@" + e.Checked
			case GoMod:
				want = e.Name + " " + e.Checked
			}
			if logical == "flight" && reg == GoMod {
				continue // no Go Flight snippet yet: checked by the go vet of its guide example only
			}
			if !strings.Contains(script, want) {
				t.Errorf("%s (%s): scripts/check-snippets does not check %q", logical, reg, want)
			}
		}
	}
}

func readRepoFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
