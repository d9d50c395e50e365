// packages: @elastic/elasticsearch@8
// env: ELASTICSEARCH_URL, LOAMS_API_KEY
// doc: guides/engines/elasticsearch.md
import { existsSync } from "node:fs";
import { Client } from "@elastic/elasticsearch";

// .env.loams holds the stack's URLs and key; variables already set win (Node >= 20.12).
if (existsSync(".env.loams")) process.loadEnvFile(".env.loams");

const es = new Client({ node: process.env.ELASTICSEARCH_URL, auth: { bearer: process.env.LOAMS_API_KEY } });

const docs = [
  { id: "1", title: "Refunds", body: "a refund takes 5 days" },
  { id: "2", title: "Shipping", body: "shipping is free over 50 EUR" },
];
const res = await es.bulk({
  refresh: true,
  operations: docs.flatMap(({ id, ...doc }) => [{ index: { _index: "articles", _id: id } }, doc]),
});
console.log("errors:", res.errors);
