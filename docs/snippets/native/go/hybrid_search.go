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
	query := map[string]any{
		"from": "collections.kb",
		"retrieve": []any{
			map[string]any{"vector": map[string]any{"field": "embedding", "query": []float32{0.1, 0.2, 0.3, 0.4}, "k": 20}},
			map[string]any{"text": map[string]any{"field": "body", "query": "refund", "k": 20}},
		},
		"filter": map[string]any{"term": map[string]any{"lang": "en"}},
		"fuse":   map[string]any{"method": "rrf", "k": 60},
		"limit":  5,
	}
	fmt.Printf("%s\n", call("POST", "/v1/namespaces/default/query", query))
}
