#!/usr/bin/env bash
# packages: curl
# env: LOAMS_URL, LOAMS_API_KEY
# doc: guides/engines/native.md
set -euo pipefail
curl -fsS -X POST "$LOAMS_URL/v1/namespaces/default/sql" \
  -H "Authorization: Bearer $LOAMS_API_KEY" -H 'content-type: application/json' \
  -d "{\"query\": \"SELECT pk, score FROM text_search('kb', 'refund', 'body', 10)\"}"
