//go:build ignore

// packages: github.com/elastic/go-elasticsearch/v8
// env: ELASTICSEARCH_URL, LOAMS_API_KEY
// doc: guides/engines/elasticsearch.md
package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/elastic/go-elasticsearch/v8"
)

// connect uses the stack's key as a bearer token.
func connect() *elasticsearch.Client {
	es, err := elasticsearch.NewClient(elasticsearch.Config{
		Addresses:    []string{os.Getenv("ELASTICSEARCH_URL")},
		ServiceToken: os.Getenv("LOAMS_API_KEY"),
	})
	if err != nil {
		log.Fatal(err)
	}
	return es
}

func show(body io.ReadCloser, err error) {
	if err != nil {
		log.Fatal(err)
	}
	defer body.Close()
	out, _ := io.ReadAll(body)
	fmt.Println(string(out))
}

func main() {
	es := connect()
	res, err := es.Index("articles", strings.NewReader(`{"title": "Refunds", "body": "a refund takes 5 days"}`),
		es.Index.WithDocumentID("1"), es.Index.WithRefresh("true"))
	if err != nil {
		log.Fatal(err)
	}
	show(res.Body, nil)
}
