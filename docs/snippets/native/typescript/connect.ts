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
  const ready = await fetch(base + "/ready");
  console.log("ready:", ready.status === 200);
  console.log(await call("GET", "/v1/namespaces/default/collections"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

export {}; // a module: each snippet stands alone
