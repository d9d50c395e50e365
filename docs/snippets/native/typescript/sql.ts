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

async function main(): Promise<void> {
  const res = (await call("POST", "/v1/namespaces/default/sql", {
    query: "SELECT pk, score FROM rrf(vector_search('kb', [0.1, 0.2, 0.3, 0.4], 'embedding', 10), text_search('kb', 'refund', 'body', 10))",
  })) as { columns: { name: string; type: string }[]; rows: unknown[][] };
  console.log(res.columns.map((c) => c.name));
  for (const row of res.rows) console.log(row);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

export {}; // a module: each snippet stands alone
