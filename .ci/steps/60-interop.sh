#!/usr/bin/env bash
# Real MCP clients from npm against `loams mcp serve` (see scripts/interop).
set -euo pipefail
export LOAMS_CACHE
# Copilot CLI is driven through tmux (its MCP view is interactive).
if ! command -v tmux >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tmux >/dev/null
fi
scripts/interop
