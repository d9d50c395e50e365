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
	sql := "SELECT pk, score FROM rrf(vector_search('kb', [0.1, 0.2, 0.3, 0.4], 'embedding', 10), text_search('kb', 'refund', 'body', 10))"
	var res struct {
		Columns []struct{ Name, Type string } `json:"columns"`
		Rows    [][]any                       `json:"rows"`
	}
	if err := json.Unmarshal(call("POST", "/v1/namespaces/default/sql", map[string]any{"query": sql}), &res); err != nil {
		log.Fatal(err)
	}
	for _, row := range res.Rows {
		fmt.Println(row)
	}
}
