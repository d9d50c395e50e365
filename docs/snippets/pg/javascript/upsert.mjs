// packages: pg
// env: LOAMS_PG_URL, LOAMS_API_KEY
// doc: guides/engines/postgres-wire.md
import { existsSync } from "node:fs";
import pg from "pg";

// .env.loams holds the stack's URLs and key; variables already set win (Node >= 20.12).
if (existsSync(".env.loams")) process.loadEnvFile(".env.loams");

const client = new pg.Client({ connectionString: process.env.LOAMS_PG_URL, password: process.env.LOAMS_API_KEY });
await client.connect();
try {
  await client.query("INSERT INTO kb (pk, body) VALUES ($1, $2)", ["3", "returns are accepted for 30 days"]);
} finally {
  await client.end();
}
