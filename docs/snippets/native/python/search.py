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

query = {"from": "collections.kb", "retrieve": [{"text": {"field": "body", "query": "refund", "k": 10}}], "limit": 5}
req = urllib.request.Request(BASE + "/v1/namespaces/default/query", method="POST", data=json.dumps(query).encode())
req.add_header("Authorization", "Bearer " + KEY)
req.add_header("Content-Type", "application/json")
with urllib.request.urlopen(req) as resp:
    for hit in json.loads(resp.read())["hits"]:
        print(hit["pk"], hit["score"], hit["source"])
