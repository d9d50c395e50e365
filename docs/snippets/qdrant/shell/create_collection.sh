#!/usr/bin/env bash
# packages: curl
# env: QDRANT_URL, LOAMS_API_KEY
# doc: guides/engines/qdrant.md
set -euo pipefail
curl -fsS -X PUT "$QDRANT_URL/collections/docs" -H "api-key: $LOAMS_API_KEY" \
  -H 'content-type: application/json' -d '{"vectors": {"size": 4, "distance": "Cosine"}}'
