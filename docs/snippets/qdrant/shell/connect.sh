#!/usr/bin/env bash
# packages: curl
# env: QDRANT_URL, LOAMS_API_KEY
# doc: guides/engines/qdrant.md
set -euo pipefail
curl -fsS -H "api-key: $LOAMS_API_KEY" "$QDRANT_URL/collections"
