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

ops = [
    {"upsert": {"id": "1", "source": {"body": "a refund takes 5 days", "lang": "en"}, "vectors": {"embedding": [0.1, 0.2, 0.3, 0.4]}}},
    {"upsert": {"id": "2", "source": {"body": "shipping is free over 50 EUR", "lang": "en"}, "vectors": {"embedding": [0.4, 0.3, 0.2, 0.1]}}},
]
req = urllib.request.Request(BASE + "/v1/namespaces/default/collections/kb/documents", method="POST",
                             data=json.dumps({"ops": ops}).encode())
req.add_header("Authorization", "Bearer " + KEY)
req.add_header("Content-Type", "application/json")
with urllib.request.urlopen(req) as resp:
    result = json.loads(resp.read())
    print("consistency token:", result["token"])
