// packages: @elastic/elasticsearch@8
// env: ELASTICSEARCH_URL, LOAMS_API_KEY
// doc: guides/engines/elasticsearch.md
import { Client } from "@elastic/elasticsearch";

const es = new Client({ node: process.env.ELASTICSEARCH_URL!, auth: { bearer: process.env.LOAMS_API_KEY! } });

interface Article {
  title: string;
  body: string;
}

async function main(): Promise<void> {
  await es.indices.create({
    index: "articles",
    mappings: {
      properties: {
        title: { type: "text" },
        body: { type: "text" },
        embedding: { type: "dense_vector", dims: 4, similarity: "cosine" },
      },
    },
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
