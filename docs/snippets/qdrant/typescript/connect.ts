// packages: @qdrant/js-client-rest
// env: QDRANT_URL, LOAMS_API_KEY
// doc: guides/engines/qdrant.md
import { QdrantClient } from "@qdrant/js-client-rest";

const client = new QdrantClient({ url: process.env.QDRANT_URL!, apiKey: process.env.LOAMS_API_KEY });

async function main(): Promise<void> {
  const { collections } = await client.getCollections();
  console.log(collections.map((c) => c.name));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
