#!/usr/bin/env bash
# packages: curl
# env: LOAMS_URL, LOAMS_API_KEY
# doc: guides/engines/native.md
set -euo pipefail
curl -fsS -X POST "$LOAMS_URL/v1/namespaces/default/query" \
  -H "Authorization: Bearer $LOAMS_API_KEY" -H 'content-type: application/json' -d '{
  "from": "collections.kb",
  "retrieve": [
    {"vector": {"field": "embedding", "query": [0.1, 0.2, 0.3, 0.4], "k": 20}},
    {"text": {"field": "body", "query": "refund", "k": 20}}
  ],
  "filter": {"term": {"lang": "en"}},
  "fuse": {"method": "rrf", "k": 60},
  "limit": 5
}'
