// packages: pg, @types/pg
// env: LOAMS_PG_URL, LOAMS_API_KEY
// doc: guides/engines/postgres-wire.md
import { Client } from "pg";

const client = new Client({ connectionString: process.env.LOAMS_PG_URL, password: process.env.LOAMS_API_KEY });

async function main(): Promise<void> {
  await client.connect();
  const res = await client.query<{ pk: string; score: number }>("SELECT pk, score FROM text_search('kb', $1, 'body', 10)", ["refund"]);
  for (const row of res.rows) console.log(row.pk, row.score);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => client.end());
