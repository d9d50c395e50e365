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
	wait := true
	_, err := client.Upsert(context.Background(), &qdrant.UpsertPoints{
		CollectionName: "docs",
		Wait:           &wait,
		Points: []*qdrant.PointStruct{
			{Id: qdrant.NewIDNum(1), Vectors: qdrant.NewVectors(0.1, 0.2, 0.3, 0.4), Payload: qdrant.NewValueMap(map[string]any{"body": "a refund takes 5 days"})},
			{Id: qdrant.NewIDNum(2), Vectors: qdrant.NewVectors(0.4, 0.3, 0.2, 0.1), Payload: qdrant.NewValueMap(map[string]any{"body": "shipping is free over 50 EUR"})},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("upserted 2 points")
}
