# packages:
# env: LOAMS_URL, LOAMS_API_KEY
# doc: guides/engines/native.md
import json
import os
import urllib.request

# .env.loams (from `loams env export`) holds the stack's URLs and key; variables already set win.
if os.path.exists(".env.loams"):
    with open(".env.loams") as env:
        for name, _, value in (line.strip().partition("=") for line in env):
            if name and not name.startswith("#"):
                os.environ.setdefault(name, value.strip("'\""))

BASE = os.environ["LOAMS_URL"]
KEY = os.environ["LOAMS_API_KEY"]


def post(path, body):
    req = urllib.request.Request(BASE + path, method="POST", data=json.dumps(body).encode())
    req.add_header("Authorization", "Bearer " + KEY)
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req) as resp:
        return json.loads(resp.read() or b"null")


schema = {
    "fields": [
        {"name": "body", "source_path": "body", "kind": {"text": {"analyzer": "standard", "positions": True}}, "indexed": True},
        {"name": "lang", "source_path": "lang", "kind": "keyword", "indexed": True, "fast": True},
    ],
    "vectors": [{"name": "embedding", "dim": 4, "distance": "cosine"}],
    "sparse_vectors": [],
    "dynamic": "ignore",
    "max_fields": 1000,
}
print(post("/v1/namespaces/default/collections", {"name": "kb", "schema": schema}))
