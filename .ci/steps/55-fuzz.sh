#!/usr/bin/env bash
# A bounded fuzz run of the MCP server's JSON-RPC framing and dispatch
# (front.FuzzFraming, seeded with every case of issue 11) on every
# build. A failing input is written to
# mcpserve/front/testdata/fuzz/FuzzFraming/: commit it with the fix, and
# `go test ./...` replays it from then on.
set -euo pipefail
go test ./mcpserve/front -run '^$' -fuzz '^FuzzFraming$' -fuzztime "${LOAMS_FUZZ_TIME:-60s}" -fuzzminimizetime 10s
