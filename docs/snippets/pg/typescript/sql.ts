// packages: pg, @types/pg
// env: LOAMS_PG_URL, LOAMS_API_KEY
// doc: guides/engines/postgres-wire.md
import { Client } from "pg";

const client = new Client({ connectionString: process.env.LOAMS_PG_URL, password: process.env.LOAMS_API_KEY });

async function main(): Promise<void> {
  await client.connect();
  const res = await client.query(
    "SELECT pk, score FROM rrf(vector_search('kb', [0.1, 0.2, 0.3, 0.4], 'embedding', 10), text_search('kb', 'refund', 'body', 10))",
  );
  console.log(res.rows);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => client.end());
