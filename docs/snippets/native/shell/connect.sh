#!/usr/bin/env bash
# packages: curl
# env: LOAMS_URL, LOAMS_API_KEY
# doc: guides/engines/native.md
set -euo pipefail
curl -fsS -o /dev/null -w 'ready: %{http_code}\n' "$LOAMS_URL/ready"
curl -fsS -H "Authorization: Bearer $LOAMS_API_KEY" "$LOAMS_URL/v1/namespaces/default/collections"
