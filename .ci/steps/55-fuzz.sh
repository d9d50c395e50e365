#!/usr/bin/env bash
# Bounded fuzz runs, on every build, of what reads input loams does not
# control: the MCP server's JSON-RPC framing and dispatch
# (front.FuzzFraming, seeded with every case of issue 11), a cloned
# repository's loams.toml through the [dev] reader/editor
# (workspace.FuzzManifestEdit), the TOML quoting every written name goes
# through (tomlkey.FuzzQuote: what is written parses back the same) and
# config.toml's editor under any profile name (config.FuzzConfigSet; issue
# 27). A failing input is written to <package>/testdata/fuzz/<Target>/:
# commit it with the fix, and `go test ./...` replays it from then on.
set -euo pipefail
fuzz() {
	go test "$1" -run '^$' -fuzz "^$2\$" -fuzztime "${LOAMS_FUZZ_TIME:-60s}" -fuzzminimizetime 10s
}
fuzz ./mcpserve/front FuzzFraming
fuzz ./workspace FuzzManifestEdit
fuzz ./internal/tomlkey FuzzQuote
fuzz ./internal/config FuzzConfigSet
