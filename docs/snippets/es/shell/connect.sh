#!/usr/bin/env bash
# packages: curl
# env: ELASTICSEARCH_URL, LOAMS_API_KEY
# doc: guides/engines/elasticsearch.md
set -euo pipefail
curl -fsS -H "Authorization: Bearer $LOAMS_API_KEY" "$ELASTICSEARCH_URL/"
