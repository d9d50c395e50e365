#!/usr/bin/env bash
# Every snippet compiles or type-checks against the real client libraries.
set -euo pipefail
export LOAMS_CACHE
scripts/check-snippets
