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
	if _, err := conn.Exec(ctx, "INSERT INTO kb (pk, body) VALUES ($1, $2)", "3", "returns are accepted for 30 days"); err != nil {
		log.Fatal(err)
	}
	fmt.Println("inserted")
}
