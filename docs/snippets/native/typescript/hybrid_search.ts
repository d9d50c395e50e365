// packages:
// env: LOAMS_URL, LOAMS_API_KEY
// doc: guides/engines/native.md
const base = process.env.LOAMS_URL!;
const key = process.env.LOAMS_API_KEY!;

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

interface Hit { pk: string; score: number; source: Record<string, unknown> }

async function main(): Promise<void> {
  const res = (await call("POST", "/v1/namespaces/default/query", {
    from: "collections.kb",
    retrieve: [
      { vector: { field: "embedding", query: [0.1, 0.2, 0.3, 0.4], k: 20 } },
      { text: { field: "body", query: "refund", k: 20 } },
    ],
    filter: { term: { lang: "en" } },
    fuse: { method: "rrf", k: 60 },
    limit: 5,
  })) as { hits: Hit[] };
  for (const hit of res.hits) console.log(hit.pk, hit.score, hit.source);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

export {}; // a module: each snippet stands alone
