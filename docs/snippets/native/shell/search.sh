#!/usr/bin/env bash
# packages: curl
# env: LOAMS_URL, LOAMS_API_KEY
# doc: guides/engines/native.md
set -euo pipefail
curl -fsS -X POST "$LOAMS_URL/v1/namespaces/default/query" \
  -H "Authorization: Bearer $LOAMS_API_KEY" -H 'content-type: application/json' -d '{
  "from": "collections.kb",
  "retrieve": [{"text": {"field": "body", "query": "refund", "k": 10}}],
  "limit": 5
}'
