#!/usr/bin/env bash
# packages: postgresql-client
# env: LOAMS_PG_URL, LOAMS_API_KEY
# doc: guides/engines/postgres-wire.md
set -euo pipefail
export PGPASSWORD="$LOAMS_API_KEY"
psql "$LOAMS_PG_URL" -c "INSERT INTO kb (pk, body) VALUES ('3', 'returns are accepted for 30 days')"
