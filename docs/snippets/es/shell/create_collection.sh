#!/usr/bin/env bash
# packages: curl
# env: ELASTICSEARCH_URL, LOAMS_API_KEY
# doc: guides/engines/elasticsearch.md
set -euo pipefail
curl -fsS -X PUT "$ELASTICSEARCH_URL/articles" -H "Authorization: Bearer $LOAMS_API_KEY" \
  -H 'content-type: application/json' -d '{"mappings": {"properties": {"title": {"type": "text"}, "body": {"type": "text"}}}}'
