#!/usr/bin/env bash
# packages: curl
# env: ELASTICSEARCH_URL, LOAMS_API_KEY
# doc: guides/engines/elasticsearch.md
set -euo pipefail
curl -fsS -X POST "$ELASTICSEARCH_URL/_bulk?refresh=true" -H "Authorization: Bearer $LOAMS_API_KEY" \
  -H 'content-type: application/x-ndjson' --data-binary @- <<'EOF'
{"index": {"_index": "articles", "_id": "1"}}
{"title": "Refunds", "body": "a refund takes 5 days"}
{"index": {"_index": "articles", "_id": "2"}}
{"title": "Shipping", "body": "shipping is free over 50 EUR"}
EOF
