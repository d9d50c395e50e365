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
  await call("POST", "/v1/namespaces/default/collections", {
    name: "kb",
    schema: {
      fields: [
        { name: "body", source_path: "body", kind: { text: { analyzer: "standard", positions: true } }, indexed: true },
        { name: "lang", source_path: "lang", kind: "keyword", indexed: true, fast: true },
      ],
      vectors: [{ name: "embedding", dim: 4, distance: "cosine" }],
      sparse_vectors: [],
      dynamic: "ignore",
      max_fields: 1000,
    },
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

export {}; // a module: each snippet stands alone
