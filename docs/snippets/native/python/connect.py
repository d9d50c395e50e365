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


def call(method, path, body=None):
    req = urllib.request.Request(BASE + path, method=method, data=None if body is None else json.dumps(body).encode())
    req.add_header("Authorization", "Bearer " + KEY)
    req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req) as resp:
        return json.loads(resp.read() or b"null")


with urllib.request.urlopen(BASE + "/ready") as resp:
    print("ready:", resp.status == 200)
print(call("GET", "/v1/namespaces/default/collections"))
