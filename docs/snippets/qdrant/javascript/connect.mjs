// packages: @qdrant/js-client-rest
// env: QDRANT_URL, LOAMS_API_KEY
// doc: guides/engines/qdrant.md
import { existsSync } from "node:fs";
import { QdrantClient } from "@qdrant/js-client-rest";

// .env.loams holds the stack's URLs and key; variables already set win (Node >= 20.12).
if (existsSync(".env.loams")) process.loadEnvFile(".env.loams");

const client = new QdrantClient({ url: process.env.QDRANT_URL, apiKey: process.env.LOAMS_API_KEY });

const { collections } = await client.getCollections();
console.log(collections.map((c) => c.name));
