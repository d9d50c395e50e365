#!/usr/bin/env bash
# packages: curl
# env: QDRANT_URL, LOAMS_API_KEY
# doc: guides/engines/qdrant.md
set -euo pipefail
curl -fsS -X PUT "$QDRANT_URL/collections/docs/points?wait=true" -H "api-key: $LOAMS_API_KEY" \
  -H 'content-type: application/json' -d '{
  "points": [
    {"id": 1, "vector": [0.1, 0.2, 0.3, 0.4], "payload": {"body": "a refund takes 5 days"}},
    {"id": 2, "vector": [0.4, 0.3, 0.2, 0.1], "payload": {"body": "shipping is free over 50 EUR"}}
  ]
}'
