package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// apiServer serves the native API as the stand-in's --listen does (the
// key guard in front), on a real 127.0.0.1 port closed when the test ends.
type apiServer struct {
	t     *testing.T
	url   string
	key   string
	ready *atomic.Bool
}

func newAPIServer(t *testing.T) *apiServer { return newRecordedAPIServer(t, "") }

// newRecordedAPIServer records requests in the file record, as
// TESTSERVER_HEADERS does.
func newRecordedAPIServer(t *testing.T, record string) *apiServer {
	const key = "loams_0123456789ab_secretsecretsecret"
	t.Setenv("LOAMS_API_KEY", key)
	t.Setenv("TESTSERVER_HEADERS", record)
	ready := &atomic.Bool{}
	ready.Store(true)
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	srv := httptest.NewServer(guard(nativeMux(mux, ready.Load)))
	t.Cleanup(srv.Close)
	return &apiServer{t: t, url: srv.URL, key: key, ready: ready}
}

// reply is one answer: status, headers and the decoded JSON body.
type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (s *apiServer) call(method, path string, body any) reply {
	return s.callWithKey(s.key, method, path, body)
}

func (s *apiServer) callWithKey(key, method, path string, body any) reply {
	s.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.url+path, r)
	if err != nil {
		s.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	out := reply{status: resp.StatusCode, header: resp.Header, raw: string(data)}
	if len(data) > 0 {
		if err := json.Unmarshal(data, &out.body); err != nil {
			s.t.Fatalf("%s %s: %d, body is not a JSON object: %q", method, path, resp.StatusCode, data)
		}
	}
	return out
}

// must fails the test unless the reply has the status.
func (r reply) must(t *testing.T, status int) reply {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.raw)
	}
	return r
}

// mustError fails the test unless the reply is the server's error shape
// with this status and code.
func (r reply) mustError(t *testing.T, status int, code string) {
	t.Helper()
	r.must(t, status)
	if r.body["error"] != code || r.body["message"] == "" || r.body["message"] == nil {
		t.Fatalf("error body %s, want {\"error\":%q,\"message\":…}", r.raw, code)
	}
}

// The schema and documents of docs/snippets/native: what the snippets do
// must work here in the order a reader runs them.
var kbSchema = map[string]any{
	"fields": []any{
		map[string]any{"name": "body", "source_path": "body", "kind": map[string]any{"text": map[string]any{"analyzer": "standard", "positions": true}}, "indexed": true},
		map[string]any{"name": "lang", "source_path": "lang", "kind": "keyword", "indexed": true, "fast": true},
	},
	"vectors":        []any{map[string]any{"name": "embedding", "dim": 4, "distance": "cosine"}},
	"sparse_vectors": []any{},
	"dynamic":        "ignore",
	"max_fields":     1000,
}

func kbOps() map[string]any {
	return map[string]any{"ops": []any{
		map[string]any{"upsert": map[string]any{"id": "1", "source": map[string]any{"body": "a refund takes 5 days", "lang": "en"}, "vectors": map[string]any{"embedding": []float64{0.1, 0.2, 0.3, 0.4}}}},
		map[string]any{"upsert": map[string]any{"id": "2", "source": map[string]any{"body": "shipping is free over 50 EUR", "lang": "en"}, "vectors": map[string]any{"embedding": []float64{0.4, 0.3, 0.2, 0.1}}}},
		map[string]any{"upsert": map[string]any{"id": "3", "source": map[string]any{"body": "Rückerstattung: refund in 5 Tagen", "lang": "de"}, "vectors": map[string]any{"embedding": []float64{0.1, 0.2, 0.3, 0.5}}}},
	}}
}

func (s *apiServer) seedKB() {
	s.t.Helper()
	s.call("POST", "/v1/namespaces/default/collections", map[string]any{"name": "kb", "schema": kbSchema}).must(s.t, http.StatusCreated)
	s.call("POST", "/v1/namespaces/default/collections/kb/documents", kbOps()).must(s.t, http.StatusOK)
}

// pks are the hits' primary keys, in order.
func pks(t *testing.T, r reply) string {
	t.Helper()
	hits, ok := r.body["hits"].([]any)
	if !ok {
		t.Fatalf("no hits list: %s", r.raw)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.(map[string]any)["pk"].(string))
	}
	return strings.Join(out, ",")
}

func TestCollectionsLifecycle(t *testing.T) {
	s := newAPIServer(t)
	list := s.call("GET", "/v1/namespaces/default/collections", nil).must(t, http.StatusOK)
	if cols, ok := list.body["collections"].([]any); !ok || len(cols) != 0 {
		t.Fatalf("a new server's default namespace: %s, want {\"collections\":[]}", list.raw)
	}
	created := s.call("POST", "/v1/namespaces/default/collections", map[string]any{"name": "kb", "schema": kbSchema}).must(t, http.StatusCreated)
	if created.body["name"] != "kb" {
		t.Fatalf("created: %s", created.raw)
	}
	s.call("POST", "/v1/namespaces/default/collections", map[string]any{"name": "kb", "schema": kbSchema}).mustError(t, http.StatusConflict, "already_exists")
	list = s.call("GET", "/v1/namespaces/default/collections", nil).must(t, http.StatusOK)
	if !strings.Contains(list.raw, `"name":"kb"`) || !strings.Contains(list.raw, `"dim":4`) {
		t.Fatalf("list after create: %s", list.raw)
	}
	s.call("GET", "/v1/namespaces/default/collections/kb", nil).must(t, http.StatusOK)
	s.call("DELETE", "/v1/namespaces/default/collections/kb", nil).must(t, http.StatusNoContent)
	s.call("GET", "/v1/namespaces/default/collections/kb", nil).mustError(t, http.StatusNotFound, "not_found")
	s.call("DELETE", "/v1/namespaces/default/collections/kb", nil).mustError(t, http.StatusNotFound, "not_found")
}

func TestNamespaces(t *testing.T) {
	s := newAPIServer(t)
	r := s.call("POST", "/v1/namespaces", map[string]any{"name": "team-a"}).must(t, http.StatusCreated)
	if r.body["id"] != "team-a" {
		t.Fatalf("create namespace: %s, want {\"id\":…}", r.raw)
	}
	s.call("POST", "/v1/namespaces", map[string]any{"name": "team-a"}).mustError(t, http.StatusConflict, "already_exists")
	s.call("POST", "/v1/namespaces", map[string]any{"name": "default"}).mustError(t, http.StatusConflict, "already_exists")
	s.call("POST", "/v1/namespaces", map[string]any{"name": "a/b"}).mustError(t, http.StatusBadRequest, "invalid_argument")
	s.call("POST", "/v1/namespaces/team-a/collections", map[string]any{"name": "kb", "schema": kbSchema}).must(t, http.StatusCreated)
	// Namespaces are apart: default still has no kb.
	s.call("GET", "/v1/namespaces/default/collections/kb", nil).mustError(t, http.StatusNotFound, "not_found")
	s.call("GET", "/v1/namespaces/nope/collections", nil).mustError(t, http.StatusNotFound, "not_found")
}

func TestSchemaIsChecked(t *testing.T) {
	s := newAPIServer(t)
	bad := map[string]string{
		"no schema":       `{"name":"kb"}`,
		"zero dim":        `{"name":"kb","schema":{"fields":[],"vectors":[{"name":"v","dim":0,"distance":"cosine"}]}}`,
		"distance":        `{"name":"kb","schema":{"fields":[],"vectors":[{"name":"v","dim":3,"distance":"manhattan"}]}}`,
		"kind":            `{"name":"kb","schema":{"fields":[{"name":"x","kind":"texty"}]}}`,
		"twice":           `{"name":"kb","schema":{"fields":[{"name":"x","kind":"keyword"},{"name":"x","kind":"keyword"}]}}`,
		"dynamic":         `{"name":"kb","schema":{"fields":[],"dynamic":"sometimes"}}`,
		"name with a dot": `{"name":"k.b","schema":{"fields":[]}}`,
		"not json":        `{"name":`,
	}
	for why, body := range bad {
		t.Run(why, func(t *testing.T) {
			s.call("POST", "/v1/namespaces/default/collections", body).mustError(t, http.StatusBadRequest, "invalid_argument")
		})
	}
	s.call("GET", "/v1/namespaces/default/collections", nil).must(t, http.StatusOK)
}

func TestWritesReturnAConsistencyToken(t *testing.T) {
	s := newAPIServer(t)
	s.call("POST", "/v1/namespaces/default/collections", map[string]any{"name": "kb", "schema": kbSchema}).must(t, http.StatusCreated)
	w := s.call("POST", "/v1/namespaces/default/collections/kb/documents", kbOps()).must(t, http.StatusOK)
	token, _ := w.body["token"].(string)
	if token == "" || w.header.Get("Loams-Consistency-Token") != token {
		t.Fatalf("token %q in the body, %q in the header: want the same, non-empty", token, w.header.Get("Loams-Consistency-Token"))
	}
	if res, _ := w.body["results"].([]any); len(res) != 3 || !strings.Contains(w.raw, `"result":"created"`) {
		t.Fatalf("results: %s", w.raw)
	}
	w2 := s.call("POST", "/v1/namespaces/default/collections/kb/documents", map[string]any{"ops": []any{
		map[string]any{"upsert": map[string]any{"id": "1", "source": map[string]any{"body": "refunds are instant now", "lang": "en"}}},
		map[string]any{"delete": map[string]any{"id": "2"}},
		map[string]any{"delete": map[string]any{"id": "9"}},
	}}).must(t, http.StatusOK)
	if w2.body["token"] == token {
		t.Fatalf("a second write returned the first one's token %q", token)
	}
	for _, want := range []string{`"result":"updated"`, `"result":"deleted"`, `"result":"not_found"`} {
		if !strings.Contains(w2.raw, want) {
			t.Fatalf("second write: %s, want %s", w2.raw, want)
		}
	}
	// Reads are strong: the write is seen at once.
	got := s.call("POST", "/v1/namespaces/default/collections/kb/documents/get", map[string]any{"ids": []any{"1", "2", 3}, "select": []string{"body"}}).must(t, http.StatusOK)
	docs, _ := got.body["documents"].([]any)
	if len(docs) != 2 || !strings.Contains(got.raw, "refunds are instant now") || strings.Contains(got.raw, `"lang"`) {
		t.Fatalf("documents/get: %s, want 1 (updated, body only) and 3", got.raw)
	}
}

func TestABadOpLeavesTheBatchUnwritten(t *testing.T) {
	s := newAPIServer(t)
	s.call("POST", "/v1/namespaces/default/collections", map[string]any{"name": "kb", "schema": kbSchema}).must(t, http.StatusCreated)
	for why, ops := range map[string]string{
		"dimension":      `{"ops":[{"upsert":{"id":"1","source":{}}},{"upsert":{"id":"2","source":{},"vectors":{"embedding":[1,2]}}}]}`,
		"unknown vector": `{"ops":[{"upsert":{"id":"1","source":{}}},{"upsert":{"id":"2","source":{},"vectors":{"emb":[1,2,3,4]}}}]}`,
		"no id":          `{"ops":[{"upsert":{"id":"1","source":{}}},{"upsert":{"source":{}}}]}`,
		"both":           `{"ops":[{"upsert":{"id":"1","source":{}},"delete":{"id":"1"}}]}`,
		"neither":        `{"ops":[{"upsert":{"id":"1","source":{}}},{}]}`,
		"empty":          `{"ops":[]}`,
	} {
		t.Run(why, func(t *testing.T) {
			s.call("POST", "/v1/namespaces/default/collections/kb/documents", ops).mustError(t, http.StatusBadRequest, "invalid_argument")
		})
	}
	got := s.call("POST", "/v1/namespaces/default/collections/kb/documents/get", map[string]any{"ids": []string{"1", "2"}}).must(t, http.StatusOK)
	if docs, _ := got.body["documents"].([]any); len(docs) != 0 {
		t.Fatalf("after refused batches: %s, want no documents", got.raw)
	}
	s.call("POST", "/v1/namespaces/default/collections/nope/documents", kbOps()).mustError(t, http.StatusNotFound, "not_found")
}

func TestAuthReadinessAndUnknownRoutes(t *testing.T) {
	s := newAPIServer(t)
	s.callWithKey("", "GET", "/v1/namespaces/default/collections", nil).mustError(t, http.StatusUnauthorized, "unauthenticated")
	s.callWithKey("loams_0123456789ab_wrong", "GET", "/v1/namespaces/default/collections", nil).mustError(t, http.StatusUnauthorized, "unauthenticated")
	s.callWithKey("", "GET", "/health", nil).must(t, http.StatusOK)
	s.call("GET", "/v1/namespaces/default/tables", nil).mustError(t, http.StatusNotFound, "not_found")
	s.ready.Store(false)
	r := s.call("GET", "/v1/namespaces/default/collections", nil)
	r.mustError(t, http.StatusServiceUnavailable, "unavailable")
	if r.header.Get("Retry-After") != "1" {
		t.Fatalf("a 503 without Retry-After: 1: %v", r.header)
	}
	s.call("POST", "/v1/namespaces/default/collections/kb/documents", kbOps()).mustError(t, http.StatusServiceUnavailable, "unavailable")
}

// The request log tells the snippet runners whether a call worked: each
// line carries the status, and is there when the client has its answer.
func TestRequestLogHasTheStatus(t *testing.T) {
	record := filepath.Join(t.TempDir(), "requests.jsonl")
	s := newRecordedAPIServer(t, record)
	s.call("POST", "/v1/namespaces/default/collections", map[string]any{"name": "kb", "schema": kbSchema}).must(t, http.StatusCreated)
	s.callWithKey("", "GET", "/v1/namespaces/default/collections", nil).must(t, http.StatusUnauthorized)
	s.call("GET", "/v1/namespaces/default/collections/nope", nil).must(t, http.StatusNotFound)
	s.call("GET", "/v1/namespaces/default/collections", nil).must(t, http.StatusOK)
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"authorization":true,"method":"POST","namespace":"","path":"/v1/namespaces/default/collections","status":201}`,
		`{"authorization":false,"method":"GET","namespace":"","path":"/v1/namespaces/default/collections","status":401}`,
		`{"authorization":true,"method":"GET","namespace":"","path":"/v1/namespaces/default/collections/nope","status":404}`,
		`{"authorization":true,"method":"GET","namespace":"","path":"/v1/namespaces/default/collections","status":200}`,
	}
	if got := strings.TrimSpace(string(data)); got != strings.Join(want, "\n") {
		t.Fatalf("recorded:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
