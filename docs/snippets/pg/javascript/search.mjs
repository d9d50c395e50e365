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
  const res = await client.query("SELECT pk, score FROM text_search('kb', $1, 'body', 10)", ["refund"]);
  for (const row of res.rows) console.log(row.pk, row.score);
} finally {
  await client.end();
}
