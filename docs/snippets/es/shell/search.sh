#!/usr/bin/env bash
# packages: curl
# env: ELASTICSEARCH_URL, LOAMS_API_KEY
# doc: guides/engines/elasticsearch.md
set -euo pipefail
curl -fsS -X POST "$ELASTICSEARCH_URL/articles/_search" -H "Authorization: Bearer $LOAMS_API_KEY" \
  -H 'content-type: application/json' -d '{"query": {"match": {"body": "refund"}}, "size": 5}'
