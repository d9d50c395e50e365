#!/usr/bin/env bash
# Real MCP clients from npm against `loams mcp serve` (see scripts/interop).
set -euo pipefail
export LOAMS_CACHE
scripts/interop
