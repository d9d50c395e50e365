#!/usr/bin/env bash
# goreleaser check + an offline snapshot release (see scripts/release-check).
set -euo pipefail
export LOAMS_CACHE
scripts/release-check
