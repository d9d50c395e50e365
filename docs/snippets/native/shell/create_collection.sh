#!/usr/bin/env bash
# packages: curl
# env: LOAMS_URL, LOAMS_API_KEY
# doc: guides/engines/native.md
set -euo pipefail
curl -fsS -X POST "$LOAMS_URL/v1/namespaces/default/collections" \
  -H "Authorization: Bearer $LOAMS_API_KEY" -H 'content-type: application/json' -d '{
  "name": "kb",
  "schema": {
    "fields": [
      {"name": "body", "source_path": "body", "kind": {"text": {"analyzer": "standard", "positions": true}}, "indexed": true},
      {"name": "lang", "source_path": "lang", "kind": "keyword", "indexed": true, "fast": true}
    ],
    "vectors": [{"name": "embedding", "dim": 4, "distance": "cosine"}],
    "sparse_vectors": [], "dynamic": "ignore", "max_fields": 1000
  }
}'
