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
  const res = await es.search<Article>({ index: "articles", query: { match: { body: "refund" } }, size: 5 });
  for (const hit of res.hits.hits) console.log(hit._id, hit._score, hit._source?.title);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
