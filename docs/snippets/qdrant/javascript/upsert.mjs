// packages: @qdrant/js-client-rest
// env: QDRANT_URL, LOAMS_API_KEY
// doc: guides/engines/qdrant.md
import { existsSync } from "node:fs";
import { QdrantClient } from "@qdrant/js-client-rest";

// .env.loams holds the stack's URLs and key; variables already set win (Node >= 20.12).
if (existsSync(".env.loams")) process.loadEnvFile(".env.loams");

const client = new QdrantClient({ url: process.env.QDRANT_URL, apiKey: process.env.LOAMS_API_KEY });

await client.upsert("docs", {
  wait: true,
  points: [
    { id: 1, vector: [0.1, 0.2, 0.3, 0.4], payload: { body: "a refund takes 5 days" } },
    { id: 2, vector: [0.4, 0.3, 0.2, 0.1], payload: { body: "shipping is free over 50 EUR" } },
  ],
});
