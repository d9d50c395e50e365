#!/usr/bin/env bash
# The whole suite again under the race detector: the supervisor, the
# spinner and the MCP server are concurrent. `go test ./...` (the README's
# command) already ran first, without it, in .ci/run.
set -euo pipefail
go test -race -count=1 ./...
