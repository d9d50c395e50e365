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
	ops := []map[string]any{
		{"upsert": map[string]any{"id": "1", "source": map[string]any{"body": "a refund takes 5 days", "lang": "en"}, "vectors": map[string]any{"embedding": []float32{0.1, 0.2, 0.3, 0.4}}}},
		{"upsert": map[string]any{"id": "2", "source": map[string]any{"body": "shipping is free over 50 EUR", "lang": "en"}, "vectors": map[string]any{"embedding": []float32{0.4, 0.3, 0.2, 0.1}}}},
	}
	var res struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(call("POST", "/v1/namespaces/default/collections/kb/documents", map[string]any{"ops": ops}), &res); err != nil {
		log.Fatal(err)
	}
	fmt.Println("consistency token:", res.Token)
}
