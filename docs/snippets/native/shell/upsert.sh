#!/usr/bin/env bash
# packages: curl
# env: LOAMS_URL, LOAMS_API_KEY
# doc: guides/engines/native.md
set -euo pipefail
curl -fsS -X POST "$LOAMS_URL/v1/namespaces/default/collections/kb/documents" \
  -H "Authorization: Bearer $LOAMS_API_KEY" -H 'content-type: application/json' -d '{
  "ops": [
    {"upsert": {"id": "1", "source": {"body": "a refund takes 5 days", "lang": "en"}, "vectors": {"embedding": [0.1, 0.2, 0.3, 0.4]}}},
    {"upsert": {"id": "2", "source": {"body": "shipping is free over 50 EUR", "lang": "en"}, "vectors": {"embedding": [0.4, 0.3, 0.2, 0.1]}}}
  ]
}'
