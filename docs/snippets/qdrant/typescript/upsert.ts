// packages: @qdrant/js-client-rest
// env: QDRANT_URL, LOAMS_API_KEY
// doc: guides/engines/qdrant.md
import { QdrantClient } from "@qdrant/js-client-rest";

const client = new QdrantClient({ url: process.env.QDRANT_URL!, apiKey: process.env.LOAMS_API_KEY });

async function main(): Promise<void> {
  await client.upsert("docs", {
    wait: true,
    points: [
      { id: 1, vector: [0.1, 0.2, 0.3, 0.4], payload: { body: "a refund takes 5 days" } },
      { id: 2, vector: [0.4, 0.3, 0.2, 0.1], payload: { body: "shipping is free over 50 EUR" } },
    ],
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
