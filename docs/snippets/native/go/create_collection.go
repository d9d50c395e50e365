//go:build ignore

// packages:
// env: LOAMS_URL, LOAMS_API_KEY
// doc: guides/engines/native.md
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
)

// call sends one JSON request to the native API with the stack's key.
func call(method, path string, body any) []byte {
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			log.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, os.Getenv("LOAMS_URL")+path, r)
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+os.Getenv("LOAMS_API_KEY"))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		log.Fatalf("%s %s: %s %s", method, path, resp.Status, out)
	}
	return out
}

func main() {
	schema := map[string]any{
		"fields": []map[string]any{
			{"name": "body", "source_path": "body", "kind": map[string]any{"text": map[string]any{"analyzer": "standard", "positions": true}}, "indexed": true},
			{"name": "lang", "source_path": "lang", "kind": "keyword", "indexed": true, "fast": true},
		},
		"vectors":        []map[string]any{{"name": "embedding", "dim": 4, "distance": "cosine"}},
		"sparse_vectors": []any{},
		"dynamic":        "ignore",
		"max_fields":     1000,
	}
	fmt.Printf("%s\n", call("POST", "/v1/namespaces/default/collections", map[string]any{"name": "kb", "schema": schema}))
}
