package main

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/standin"
	"loams.dev/cli/internal/testkit/testbin"
)

func TestMain(m *testing.M) { os.Exit(testbin.Main(m)) }

func send(t *testing.T, method, url, key, body string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&v)
	return resp, v
}

// The built stand-in serves the native API on --listen, behind the key,
// and not on the compatibility ports; before /ready it answers 503 with
// Retry-After: 1.
func TestBinaryServesTheNativeAPI(t *testing.T) {
	const key = "loams_0123456789ab_secretsecretsecret"
	srv := standin.Start(t, standin.Options{APIKey: key, ES: true, Env: []string{"TESTSERVER_READY_DELAY=1s"}})
	native, es := srv.URL, srv.ESURL
	resp, body := send(t, "GET", native+"/v1/namespaces/default/collections", key, "")
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" || body["error"] != "unavailable" {
		t.Fatalf("before ready: %d %v %v, want 503 unavailable with Retry-After: 1", resp.StatusCode, resp.Header, body)
	}
	deadline := time.Now().Add(10 * time.Second)
	for resp.StatusCode == http.StatusServiceUnavailable && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		resp, body = send(t, "GET", native+"/v1/namespaces/default/collections", key, "")
	}
	if resp.StatusCode != http.StatusOK || body["collections"] == nil {
		t.Fatalf("after ready: %d %v", resp.StatusCode, body)
	}
	schema, _ := json.Marshal(map[string]any{"name": "kb", "schema": kbSchema})
	if resp, body := send(t, "POST", native+"/v1/namespaces/default/collections", key, string(schema)); resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", resp.StatusCode, body)
	}
	ops, _ := json.Marshal(kbOps())
	resp, body = send(t, "POST", native+"/v1/namespaces/default/collections/kb/documents", key, string(ops))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Loams-Consistency-Token") == "" || resp.Header.Get("Loams-Consistency-Token") != body["token"] {
		t.Fatalf("upsert: %d %v %v", resp.StatusCode, resp.Header, body)
	}
	resp, body = send(t, "POST", native+"/v1/namespaces/default/query", key, `{"from":"collections.kb","retrieve":[{"text":{"field":"body","query":"refund"}}],"filter":{"term":{"lang":"en"}}}`)
	if hits, _ := body["hits"].([]any); resp.StatusCode != http.StatusOK || len(hits) != 1 || hits[0].(map[string]any)["pk"] != "1" {
		t.Fatalf("query: %d %v, want document 1 alone", resp.StatusCode, body)
	}
	if resp, body := send(t, "GET", native+"/v1/namespaces/default/collections", "wrong", ""); resp.StatusCode != http.StatusUnauthorized || body["error"] != "unauthenticated" {
		t.Fatalf("wrong key: %d %v", resp.StatusCode, body)
	}
	if resp, _ := send(t, "GET", es+"/v1/namespaces/default/collections", key, ""); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("the Elasticsearch port answered the native API: %d", resp.StatusCode)
	}
	if resp, _ := send(t, "GET", es+"/health", key, ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("the Elasticsearch port's /health: %d", resp.StatusCode)
	}
}
