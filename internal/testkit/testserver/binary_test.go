package main

import (
	"net/http"
	"os"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/standin"
	"loams.dev/cli/internal/testkit/testbin"
)

func TestMain(m *testing.M) { os.Exit(testbin.Main(m)) }

// The built stand-in serves the native API on --listen, behind the key,
// and not on the compatibility ports; before /ready it answers 503 with
// Retry-After: 1.
func TestBinaryServesTheNativeAPI(t *testing.T) {
	const key = "loams_0123456789ab_secretsecretsecret"
	srv := standin.Start(t, standin.Options{APIKey: key, ES: true, Env: []string{"TESTSERVER_READY_DELAY=1s"}})
	native := &apiServer{t: t, url: srv.URL, key: key}
	r := native.call("GET", "/v1/namespaces/default/collections", nil)
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "1" || r.body["error"] != "unavailable" {
		t.Fatalf("before ready: %d %v %s, want 503 unavailable with Retry-After: 1", r.status, r.header, r.raw)
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.status == http.StatusServiceUnavailable && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		r = native.call("GET", "/v1/namespaces/default/collections", nil)
	}
	if r.status != http.StatusOK || r.body["collections"] == nil {
		t.Fatalf("after ready: %d %s", r.status, r.raw)
	}
	native.call("POST", "/v1/namespaces/default/collections", map[string]any{"name": "kb", "schema": kbSchema}).must(t, http.StatusCreated)
	r = native.call("POST", "/v1/namespaces/default/collections/kb/documents", kbOps())
	if r.status != http.StatusOK || r.header.Get("Loams-Consistency-Token") == "" || r.header.Get("Loams-Consistency-Token") != r.body["token"] {
		t.Fatalf("upsert: %d %v %s", r.status, r.header, r.raw)
	}
	r = native.call("POST", "/v1/namespaces/default/query", `{"from":"collections.kb","retrieve":[{"text":{"field":"body","query":"refund"}}],"filter":{"term":{"lang":"en"}}}`)
	if hits, _ := r.body["hits"].([]any); r.status != http.StatusOK || len(hits) != 1 || hits[0].(map[string]any)["pk"] != "1" {
		t.Fatalf("query: %d %s, want document 1 alone", r.status, r.raw)
	}
	native.callWithKey("wrong", "GET", "/v1/namespaces/default/collections", nil).mustError(t, http.StatusUnauthorized, "unauthenticated")
	// The Elasticsearch port: its /health, and Go's plain 404 for the
	// native routes (not JSON, so not through call).
	for path, want := range map[string]int{"/v1/namespaces/default/collections": http.StatusNotFound, "/health": http.StatusOK} {
		req, _ := http.NewRequest("GET", srv.ESURL+path, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("the Elasticsearch port's %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
}
