//go:build ignore

// packages: github.com/qdrant/go-client
// env: QDRANT_GRPC_URL, LOAMS_API_KEY
// doc: guides/engines/qdrant.md
package main

import (
	"context"
	"fmt"
	"log"
	"net/url"
	"os"
	"strconv"

	"github.com/qdrant/go-client/qdrant"
)

// connect dials the stack's Qdrant gRPC port (QDRANT_GRPC_URL) with its key.
func connect() *qdrant.Client {
	u, err := url.Parse(os.Getenv("QDRANT_GRPC_URL"))
	if err != nil {
		log.Fatal(err)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		log.Fatal(err)
	}
	client, err := qdrant.NewClient(&qdrant.Config{Host: u.Hostname(), Port: port, APIKey: os.Getenv("LOAMS_API_KEY")})
	if err != nil {
		log.Fatal(err)
	}
	return client
}

func main() {
	client := connect()
	defer client.Close()
	names, err := client.ListCollections(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(names)
}
