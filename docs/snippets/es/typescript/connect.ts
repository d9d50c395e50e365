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
  const info = await es.info();
  console.log(info.version.number);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
