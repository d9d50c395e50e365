# packages:
# env: LOAMS_URL, LOAMS_API_KEY
# doc: guides/engines/native.md
import json
import os
import urllib.request

BASE = os.environ["LOAMS_URL"]
KEY = os.environ["LOAMS_API_KEY"]

query = {"from": "collections.kb", "retrieve": [{"text": {"field": "body", "query": "refund", "k": 10}}], "limit": 5}
req = urllib.request.Request(BASE + "/v1/namespaces/default/query", method="POST", data=json.dumps(query).encode())
req.add_header("Authorization", "Bearer " + KEY)
req.add_header("Content-Type", "application/json")
with urllib.request.urlopen(req) as resp:
    for hit in json.loads(resp.read())["hits"]:
        print(hit["pk"], hit["score"], hit["source"])
