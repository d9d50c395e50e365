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
  const docs: (Article & { id: string })[] = [
    { id: "1", title: "Refunds", body: "a refund takes 5 days" },
    { id: "2", title: "Shipping", body: "shipping is free over 50 EUR" },
  ];
  const res = await es.bulk({
    refresh: true,
    operations: docs.flatMap(({ id, ...doc }) => [{ index: { _index: "articles", _id: id } }, doc]),
  });
  console.log("errors:", res.errors);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
