#!/usr/bin/env bash
# packages: curl
# env: QDRANT_URL, LOAMS_API_KEY
# doc: guides/engines/qdrant.md
set -euo pipefail
curl -fsS -X POST "$QDRANT_URL/collections/docs/points/query" -H "api-key: $LOAMS_API_KEY" \
  -H 'content-type: application/json' -d '{"query": [0.1, 0.2, 0.3, 0.4], "limit": 5, "with_payload": true}'
