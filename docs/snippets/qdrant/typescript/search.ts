// packages: @qdrant/js-client-rest
// env: QDRANT_URL, LOAMS_API_KEY
// doc: guides/engines/qdrant.md
import { QdrantClient } from "@qdrant/js-client-rest";

const client = new QdrantClient({ url: process.env.QDRANT_URL!, apiKey: process.env.LOAMS_API_KEY });

async function main(): Promise<void> {
  const { points } = await client.query("docs", { query: [0.1, 0.2, 0.3, 0.4], limit: 5, with_payload: true });
  for (const p of points) console.log(p.id, p.score, p.payload);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
