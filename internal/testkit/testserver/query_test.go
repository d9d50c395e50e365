package main

import (
	"net/http"
	"strings"
	"testing"
)

func query(body map[string]any) map[string]any {
	body["from"] = "collections.kb"
	return body
}

func vectorRetriever(v []float64, k int) map[string]any {
	return map[string]any{"vector": map[string]any{"field": "embedding", "query": v, "k": k}}
}

func textRetriever(q string, k int) map[string]any {
	return map[string]any{"text": map[string]any{"field": "body", "query": q, "k": k}}
}

func TestQuery(t *testing.T) {
	s := newAPIServer(t)
	s.seedKB()
	cases := []struct {
		name string
		body map[string]any
		want string
	}{
		// The standard analyzer does not stem: "refunds" is another word.
		{"text", map[string]any{"retrieve": []any{textRetriever("refund", 10)}}, "1,3"},
		{"text, no stemming", map[string]any{"retrieve": []any{textRetriever("refunds", 10)}}, ""},
		{"text, case and punctuation", map[string]any{"retrieve": []any{textRetriever("SHIPPING!", 10)}}, "2"},
		{"vector cosine", map[string]any{"retrieve": []any{vectorRetriever([]float64{0.4, 0.3, 0.2, 0.1}, 10)}}, "2,1,3"},
		{"vector k", map[string]any{"retrieve": []any{vectorRetriever([]float64{0.1, 0.2, 0.3, 0.5}, 1)}}, "3"},
		{"hybrid rrf", map[string]any{"retrieve": []any{vectorRetriever([]float64{0.1, 0.2, 0.3, 0.4}, 20), textRetriever("refund", 20)},
			"fuse": map[string]any{"method": "rrf", "k": 60}}, "1,3,2"},
		{"hybrid with the snippet's filter", map[string]any{"retrieve": []any{vectorRetriever([]float64{0.1, 0.2, 0.3, 0.4}, 20), textRetriever("refund", 20)},
			"filter": map[string]any{"term": map[string]any{"lang": "en"}}, "fuse": map[string]any{"method": "rrf", "k": 60}, "limit": 5}, "1,2"},
		{"limit", map[string]any{"retrieve": []any{vectorRetriever([]float64{0.4, 0.3, 0.2, 0.1}, 10)}, "limit": 2}, "2,1"},
		{"filter only", map[string]any{"filter": map[string]any{"term": map[string]any{"lang": "de"}}}, "3"},
		{"terms", map[string]any{"filter": map[string]any{"terms": map[string]any{"lang": []string{"de", "fr"}}}}, "3"},
		{"not", map[string]any{"filter": map[string]any{"not": map[string]any{"term": map[string]any{"lang": "de"}}}}, "1,2"},
		{"and/or", map[string]any{"filter": map[string]any{"or": []any{
			map[string]any{"ids": []string{"2"}},
			map[string]any{"and": []any{map[string]any{"term": map[string]any{"lang": "de"}}, map[string]any{"match": map[string]any{"body": "tagen"}}}},
		}}}, "2,3"},
		{"term on a text field matches a token", map[string]any{"filter": map[string]any{"term": map[string]any{"body": "free"}}}, "2"},
		{"range on keywords", map[string]any{"filter": map[string]any{"range": map[string]any{"lang": map[string]any{"gte": "e"}}}}, "1,2"},
		{"exists", map[string]any{"filter": map[string]any{"exists": map[string]any{"field": "lang"}}}, "1,2,3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.call("POST", "/v1/namespaces/default/query", query(c.body)).must(t, http.StatusOK)
			if got := pks(t, r); got != c.want {
				t.Fatalf("hits %q, want %q: %s", got, c.want, r.raw)
			}
			if r.body["read_token"] == nil {
				t.Fatalf("no read_token: %s", r.raw)
			}
		})
	}
	// A hit carries its source, as the snippets print it.
	r := s.call("POST", "/v1/namespaces/default/query", query(map[string]any{"retrieve": []any{textRetriever("shipping", 1)}}))
	if !strings.Contains(r.raw, `"source":{"body":"shipping is free over 50 EUR","lang":"en"}`) || !strings.Contains(r.raw, `"score":`) {
		t.Fatalf("hit: %s", r.raw)
	}
}

func TestQueryErrors(t *testing.T) {
	s := newAPIServer(t)
	s.seedKB()
	bad := map[string]map[string]any{
		"from without collections.": {"from": "kb", "retrieve": []any{textRetriever("refund", 1)}},
		"vector dimension":          query(map[string]any{"retrieve": []any{vectorRetriever([]float64{1, 2}, 1)}}),
		"unknown vector field":      query(map[string]any{"retrieve": []any{map[string]any{"vector": map[string]any{"field": "emb", "query": []float64{1, 2, 3, 4}}}}}),
		"text on a keyword":         query(map[string]any{"retrieve": []any{map[string]any{"text": map[string]any{"field": "lang", "query": "en"}}}}),
		"filter on an unmapped key": query(map[string]any{"filter": map[string]any{"term": map[string]any{"country": "de"}}}),
		"unknown filter":            query(map[string]any{"filter": map[string]any{"prefix": map[string]any{"lang": "e"}}}),
		"two filters in one":        query(map[string]any{"filter": map[string]any{"term": map[string]any{"lang": "e"}, "ids": []string{"1"}}}),
		"unknown fuse":              query(map[string]any{"retrieve": []any{textRetriever("refund", 1), textRetriever("free", 1)}, "fuse": map[string]any{"method": "linear"}}),
		"empty retriever":           query(map[string]any{"retrieve": []any{map[string]any{}}}),
		"negative limit":            query(map[string]any{"limit": -1}),
	}
	for why, body := range bad {
		t.Run(why, func(t *testing.T) {
			s.call("POST", "/v1/namespaces/default/query", body).mustError(t, http.StatusBadRequest, "invalid_argument")
		})
	}
	s.call("POST", "/v1/namespaces/default/query", map[string]any{"from": "collections.nope"}).mustError(t, http.StatusNotFound, "not_found")
}

func TestSQLTableFunctions(t *testing.T) {
	s := newAPIServer(t)
	s.seedKB()
	sql := func(q string) reply {
		return s.call("POST", "/v1/namespaces/default/sql", map[string]any{"query": q})
	}
	// The snippets' statement: the same ranking as the hybrid query.
	r := sql("SELECT pk, score FROM rrf(vector_search('kb', [0.1, 0.2, 0.3, 0.4], 'embedding', 10), text_search('kb', 'refund', 'body', 10))").must(t, http.StatusOK)
	if !strings.HasPrefix(r.raw, `{"columns":[{"name":"pk","type":"Utf8"},{"name":"score","type":"Float64"}],"rows":[["1",`) {
		t.Fatalf("rrf: %s", r.raw)
	}
	if rows, _ := r.body["rows"].([]any); len(rows) != 3 {
		t.Fatalf("rrf rows: %s, want 3", r.raw)
	}
	r = sql("select score from text_search('kb', 'refund', 'body', 10) limit 1;").must(t, http.StatusOK)
	if rows, _ := r.body["rows"].([]any); len(rows) != 1 || len(rows[0].([]any)) != 1 {
		t.Fatalf("text_search LIMIT 1, score only: %s", r.raw)
	}
	r = sql("SELECT * FROM vector_search('kb', [0.4, 0.3, 0.2, 0.1], 'embedding', 1)").must(t, http.StatusOK)
	if !strings.Contains(r.raw, `"rows":[["2",`) {
		t.Fatalf("vector_search: %s", r.raw)
	}
	for _, q := range []string{
		"SELECT * FROM kb",
		"SELECT body FROM text_search('kb', 'refund', 'body', 10)",
		"SELECT pk FROM text_search('nope', 'refund', 'body', 10)",
		"SELECT pk FROM vector_search('kb', [1, 2], 'embedding', 10)",
		"DELETE FROM kb",
		"SELECT pk FROM text_search('kb', 'refund', 'body', 10) WHERE score > 1",
		"",
	} {
		t.Run(q, func(t *testing.T) { sql(q).mustError(t, http.StatusBadRequest, "invalid_argument") })
	}
}
