package docsindex

import (
	"math"
	"strings"
	"testing"
)

func first(ix *Index, query string) string {
	hits := ix.Search(query, 3)
	if len(hits) == 0 {
		return ""
	}
	return hits[0].Section.Path + " › " + strings.Join(hits[0].Section.TitlePath[1:], " › ")
}

// A page about another engine loses to the engine the question names, even
// when it says the question's other words more often.
func TestSearchFavoursTheEngineAsked(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "guides/engines/postgres-wire.md", TitlePath: []string{"Postgres wire", "Connect your app"},
			Body: "Your app connects to the database with its URL, as it would to qdrant; the database speaks SQL to the app, and the app to the database."},
		{Path: "guides/engines/qdrant.md", TitlePath: []string{"Qdrant API", "Connect your app"},
			Body: "Use qdrant-client with the URL; it is the database the app talks to."},
	})
	if got := first(ix, "connect my app to the qdrant database"); !strings.HasPrefix(got, "guides/engines/qdrant.md") {
		t.Errorf("first = %s, want the Qdrant guide", got)
	}
}

// An error code's entry answers a question about a failure, and the guide
// a question that is not one.
func TestSearchKnowsAFailureFromALookup(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "guides/output-and-errors.md", TitlePath: []string{"Output and errors", "Error codes and what to do", "stack_unreachable"},
			Body: "Connection refused: the app cannot reach the stack's port."},
		{Path: "guides/getting-started.md", TitlePath: []string{"Getting started", "Connect your app"},
			Body: "Your app connects to the stack's port with the URL in .env.loams; if the connection is refused, start the stack. Connection settings are there."},
	})
	if got := first(ix, "my app gets connection refused"); !strings.Contains(got, "stack_unreachable") {
		t.Errorf("a failure: first = %s, want the error code's entry", got)
	}
	if got := first(ix, "connection settings of my app"); !strings.Contains(got, "Connect your app") {
		t.Errorf("a lookup: first = %s, want the guide", got)
	}
}

// Code in another language than the one asked for steps back.
func TestSearchFavoursTheLanguageAsked(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "snippets/qdrant/python/connect.py", TitlePath: []string{"Snippets", "qdrant python connect"},
			Body: "client = QdrantClient(url=os.environ['QDRANT_URL']) # connect the client from an app to qdrant; the app connects the client to qdrant, client connect, client"},
		{Path: "snippets/qdrant/go/connect.go", TitlePath: []string{"Snippets", "qdrant go connect"},
			Body: "client, err := qdrant.NewClient(cfg)"},
	})
	if got := first(ix, "qdrant client connect from a go app"); !strings.HasPrefix(got, "snippets/qdrant/go/") {
		t.Errorf("first = %s, want the Go snippet", got)
	}
}

func TestIntentOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query        string
		engine, lang string
		failure      bool
	}{
		{"call elasticsearch from typescript", "es", "typescript", false},
		{"psql into the stack", "pg", "", false},
		{"where does the env file go", "", "", false},
		{"a go client for qdrant", "qdrant", "go", false},
		{"what does port_in_use mean", "", "", true},
		{"LOAMS_API_KEY", "", "", false},
		{"the server crashed at start", "", "", true},
		{"open a psycopg cursor", "pg", "python", false},
		{"a pgx pool", "pg", "go", false},
		{"load it into pandas", "", "python", false},
	}
	for _, tt := range tests {
		in := intentOf(tt.query)
		if tt.engine != "" && !in.engines[tt.engine] || tt.engine == "" && len(in.engines) > 0 {
			t.Errorf("%q: engines %v, want %q", tt.query, in.engines, tt.engine)
		}
		if tt.lang != "" && !in.languages[tt.lang] || tt.lang == "" && len(in.languages) > 0 {
			t.Errorf("%q: languages %v, want %q", tt.query, in.languages, tt.lang)
		}
		if in.failure != tt.failure {
			t.Errorf("%q: failure %v, want %v", tt.query, in.failure, tt.failure)
		}
	}
}

// The snippet of the engine and the language a question names answers it
// before the engine's guide, whose code is in another language and which
// says the question's words more often.
func TestSearchGivesTheSnippetOfTheEngineAndLanguageAsked(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "guides/engines/elasticsearch.md", TitlePath: []string{"Elasticsearch API", "Bulk indexing"},
			Body: "Create an index, then index many documents at once with helpers.bulk in Python."},
		{Path: "snippets/es/typescript/create_collection.ts", TitlePath: []string{"Snippets", "es typescript create collection"},
			Body: "import { Client } from '@elastic/elasticsearch'\n// create the index\nawait client.indices.create({ index: 'docs' })"},
		{Path: "guides/stacks.md", TitlePath: []string{"Stacks", "Create a stack"}, Body: "loams stack create makes a stack."},
		{Path: "guides/engines/qdrant.md", TitlePath: []string{"Qdrant API", "Collections and points"}, Body: "Create a collection with qdrant-client."},
	})
	if got := first(ix, "create an elasticsearch index from node"); !strings.HasPrefix(got, "snippets/es/typescript/") {
		t.Errorf("first = %s, want the TypeScript snippet", got)
	}
	// Named without a language, the guide stays first.
	if got := first(ix, "create an elasticsearch index"); !strings.HasPrefix(got, "guides/") {
		t.Errorf("no language: first = %s, want the guide", got)
	}
}

// "go" beside an engine's name is the language, as beside "client".
func TestGoBesideAnEngineIsTheLanguage(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"go qdrant client insert points", "qdrant go upsert", "go client for qdrant"} {
		if !intentOf(q).languages["go"] {
			t.Errorf("%q: go not read as the language", q)
		}
	}
	if intentOf("where does the env file go").languages["go"] {
		t.Error(`"where does the env file go" read as Go`)
	}
}

// A question that asks for code in so many words ("example") raises the
// snippet of its engine and language by CodeAskedBoost, and nothing else:
// then the code is the answer, not the guide that explains the task.
func TestCodeAskedForIsTheSnippet(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "guides/engines/qdrant.md", TitlePath: []string{"Qdrant API", "Collections and points"},
			Body: "Insert points into a qdrant collection from Go or Python; insert many points in one call."},
		{Path: "snippets/qdrant/go/upsert.go", TitlePath: []string{"Snippets", "qdrant go upsert"},
			Body: "// Insert points into a qdrant collection from Go.\nclient.Upsert(ctx, &qdrant.UpsertPoints{CollectionName: \"kb\", Points: points})"},
	})
	scores := func(q string) map[string]float64 {
		m := map[string]float64{}
		for _, h := range ix.Search(q, 3) {
			m[h.Section.Path] = h.Score
		}
		return m
	}
	plain, asked := scores("go qdrant insert points"), scores("go qdrant insert points example")
	const snippet, guide = "snippets/qdrant/go/upsert.go", "guides/engines/qdrant.md"
	if r := asked[snippet] / plain[snippet]; r <= 1 || math.Abs(r-DefaultTuning.CodeAskedBoost) > 1e-9 {
		t.Errorf("the snippet's score with \"example\" is %.3fx its score without; want %.2fx", r, DefaultTuning.CodeAskedBoost)
	}
	if asked[guide] != plain[guide] {
		t.Errorf("the guide's score moved: %.3f → %.3f", plain[guide], asked[guide])
	}
	if got := first(ix, "go qdrant insert points example"); !strings.HasPrefix(got, snippet) {
		t.Errorf("first = %s, want the Go snippet", got)
	}
}

// A number word is no topic: "three stacks" is about stacks, and a
// heading "in three commands" does not answer it.
func TestNumberWordsAreNotTopics(t *testing.T) {
	t.Parallel()
	ix := Build([]Section{
		{Path: "guides/deployments.md", TitlePath: []string{"Deployments", "A staging cluster in three commands"},
			Body: "Log in, then every command uses the cluster you named."},
		{Path: "guides/projects.md", TitlePath: []string{"Projects", "The target rule"},
			Body: "Which stack a command uses when you name none: --stack, loams.toml, then the default stack. With several stacks and none chosen, the command asks you to name one."},
	})
	if got := first(ix, "I have three stacks, which one does a command use"); !strings.HasPrefix(got, "guides/projects.md") {
		t.Errorf("first = %s, want the target rule", got)
	}
}
