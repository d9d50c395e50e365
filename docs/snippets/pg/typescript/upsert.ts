// packages: pg, @types/pg
// env: LOAMS_PG_URL, LOAMS_API_KEY
// doc: guides/engines/postgres-wire.md
import { Client } from "pg";

const client = new Client({ connectionString: process.env.LOAMS_PG_URL, password: process.env.LOAMS_API_KEY });

async function main(): Promise<void> {
  await client.connect();
  await client.query("INSERT INTO kb (pk, body) VALUES ($1, $2)", ["3", "returns are accepted for 30 days"]);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => client.end());
