#!/usr/bin/env bash
# packages: postgresql-client
# env: LOAMS_PG_URL, LOAMS_API_KEY
# doc: guides/engines/postgres-wire.md
set -euo pipefail
export PGPASSWORD="$LOAMS_API_KEY"
psql "$LOAMS_PG_URL" -c "SELECT pk, score FROM rrf(vector_search('kb', [0.1, 0.2, 0.3, 0.4], 'embedding', 10), text_search('kb', 'refund', 'body', 10))"
