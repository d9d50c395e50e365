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
  const result = (await call("POST", "/v1/namespaces/default/collections/kb/documents", {
    ops: [
      { upsert: { id: "1", source: { body: "a refund takes 5 days", lang: "en" }, vectors: { embedding: [0.1, 0.2, 0.3, 0.4] } } },
      { upsert: { id: "2", source: { body: "shipping is free over 50 EUR", lang: "en" }, vectors: { embedding: [0.4, 0.3, 0.2, 0.1] } } },
    ],
  })) as { token: string };
  console.log("consistency token:", result.token);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

export {}; // a module: each snippet stands alone
