// packages: @elastic/elasticsearch@8
// env: ELASTICSEARCH_URL, LOAMS_API_KEY
// doc: guides/engines/elasticsearch.md
import { existsSync } from "node:fs";
import { Client } from "@elastic/elasticsearch";

// .env.loams holds the stack's URLs and key; variables already set win (Node >= 20.12).
if (existsSync(".env.loams")) process.loadEnvFile(".env.loams");

const es = new Client({ node: process.env.ELASTICSEARCH_URL, auth: { bearer: process.env.LOAMS_API_KEY } });

const info = await es.info();
console.log(info.version.number);
