//go:build ignore

// packages: github.com/jackc/pgx/v5
// env: LOAMS_PG_URL, LOAMS_API_KEY
// doc: guides/engines/postgres-wire.md
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/jackc/pgx/v5"
)

// connect opens the stack's Postgres-wire port with its key as password.
func connect(ctx context.Context) *pgx.Conn {
	cfg, err := pgx.ParseConfig(os.Getenv("LOAMS_PG_URL"))
	if err != nil {
		log.Fatal(err)
	}
	cfg.Password = os.Getenv("LOAMS_API_KEY")
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	return conn
}

func main() {
	ctx := context.Background()
	conn := connect(ctx)
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT pk, score FROM rrf(vector_search('kb', [0.1, 0.2, 0.3, 0.4], 'embedding', 10), text_search('kb', 'refund', 'body', 10))")
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var pk string
		var score float64
		if err := rows.Scan(&pk, &score); err != nil {
			log.Fatal(err)
		}
		fmt.Println(pk, score)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
}
